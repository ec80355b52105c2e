// daemon/ops/stack/baseline.cpp — stack's CUDA baseline: its plan as a copy step
// (ops/common/baseline/strided_copy_step.hpp).
//
// torch.stack is a cat of unsqueezed views (CatArrayBatchedCopy, several inputs per launch);
// kbv's strided-copy kernel batches 16 copies (one per input) per launch the same way.
#include "ops/common/baseline/strided_copy_step.hpp"
#include "ops/stack/stack.hpp"

namespace kbv::ops::stack {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_copy_step(node, plan(node.input_shapes, node.node.attrs),
                                  "PyTorch eager: cat of unsqueezed views, CatArrayBatchedCopy");
}

}  // namespace kbv::ops::stack
