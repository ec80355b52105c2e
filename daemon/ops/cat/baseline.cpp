// daemon/ops/cat/baseline.cpp — cat's CUDA baseline: its plan as a copy step
// (ops/common/baseline/strided_copy_step.hpp).
//
// torch.cat writes a new tensor with CatArrayBatchedCopy, several inputs per launch; kbv's
// strided-copy kernel batches 16 copies (one per input) per launch the same way.
#include "ops/cat/cat.hpp"
#include "ops/common/baseline/strided_copy_step.hpp"

namespace kbv::ops::cat {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return baseline::make_copy_step(node, plan(node.input_shapes, node.node.attrs),
                                  "PyTorch eager: CatArrayBatchedCopy, several inputs per launch");
}

}  // namespace kbv::ops::cat
