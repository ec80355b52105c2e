// daemon/ops/softmax/baseline.cu — softmax's CUDA baseline: one kbv kernel per application
// (ops/common/baseline/softmax_f32.cuh), as PyTorch eager's.
#include "ops/common/baseline/softmax_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::softmax {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  return baseline::make_softmax_step<false>(node, context);
}

}  // namespace kbv::ops::softmax
