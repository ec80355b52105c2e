// daemon/ops/transpose/baseline.cpp — transpose's CUDA baseline: its plan as a copy step
// (ops/common/baseline/strided_copy_step.hpp).
//
// torch.transpose is a view; eager copies it (one TensorIterator copy kernel) only where a
// consumer needs contiguous memory, which is the copy kbv's node does: the strided-copy
// kernel, the output written in order and the input read through swapped strides.
#include "ops/common/baseline/strided_copy_step.hpp"
#include "ops/transpose/transpose.hpp"

namespace kbv::ops::transpose {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_copy_step(
      node, plan(node.input_shapes, node.node.attrs),
      "PyTorch eager: a view, then one strided copy kernel where a consumer needs it contiguous");
}

}  // namespace kbv::ops::transpose
