// daemon/ops/slice/baseline.cpp — slice's CUDA baseline: its plan as a copy step
// (ops/common/baseline/strided_copy_step.hpp).
//
// slicing is a view; eager copies it only where a consumer needs contiguous memory, which is
// the copy kbv's node does (a memcpy when the slice is one contiguous run).
#include "ops/common/baseline/strided_copy_step.hpp"
#include "ops/slice/slice.hpp"

namespace kbv::ops::slice {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_copy_step(
      node, plan(node.input_shapes, node.node.attrs),
      "PyTorch eager: a view, then one copy kernel where a consumer needs it contiguous");
}

}  // namespace kbv::ops::slice
