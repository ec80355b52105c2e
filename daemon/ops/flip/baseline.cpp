// daemon/ops/flip/baseline.cpp — flip's CUDA baseline: its plan as a copy step
// (ops/common/baseline/strided_copy_step.hpp).
//
// torch.flip writes a new tensor with one gather kernel; kbv's strided-copy kernel reads the
// axis with a negated stride, one launch.
#include "ops/common/baseline/strided_copy_step.hpp"
#include "ops/flip/flip.hpp"

namespace kbv::ops::flip {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_copy_step(node, plan(node.input_shapes, node.node.attrs),
                                  "PyTorch eager: one flip kernel");
}

}  // namespace kbv::ops::flip
