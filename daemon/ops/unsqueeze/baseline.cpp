// daemon/ops/unsqueeze/baseline.cpp — unsqueeze's CUDA baseline: its plan as a copy step
// (ops/common/baseline/strided_copy_step.hpp).
//
// torch.unsqueeze of a contiguous tensor is a view: eager runs no kernel, where kbv's node, which
// writes its own output, copies every element in order (one cudaMemcpyAsync).
#include "ops/common/baseline/strided_copy_step.hpp"
#include "ops/unsqueeze/unsqueeze.hpp"

namespace kbv::ops::unsqueeze {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_copy_step(node, plan(node.input_shapes, node.node.attrs),
                                  "PyTorch eager: a view, no kernel");
}

}  // namespace kbv::ops::unsqueeze
