// daemon/ops/select/baseline.cpp — select's CUDA baseline: its plan as a copy step
// (ops/common/baseline/strided_copy_step.hpp).
//
// Tensor.select is a view; eager copies it only where a consumer needs contiguous memory,
// which is the copy kbv's node does (a memcpy when the selected slab is contiguous).
#include "ops/common/baseline/strided_copy_step.hpp"
#include "ops/select/select.hpp"

namespace kbv::ops::select {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_copy_step(
      node, plan(node.input_shapes, node.node.attrs),
      "PyTorch eager: a view, then one copy kernel where a consumer needs it contiguous");
}

}  // namespace kbv::ops::select
