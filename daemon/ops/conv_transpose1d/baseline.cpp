// daemon/ops/conv_transpose1d/baseline.cpp — conv_transpose1d's CUDA baseline: cuDNN's
// backward-data convolution, then the bias add, as PyTorch eager runs it
// (ops/common/baseline/cudnn_convolution.hpp).
#include "ops/conv_transpose1d/conv_transpose1d.hpp"
#include "ops/common/baseline/cudnn_convolution.hpp"

namespace kbv::ops::conv_transpose1d {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  return baseline::make_cudnn_convolution_step(node, context, Definition::form);
}

}  // namespace kbv::ops::conv_transpose1d
