// daemon/ops/conv1d/baseline.cpp — conv1d's CUDA baseline: cuDNN's forward convolution, then the
// bias add, as PyTorch eager runs it (ops/common/baseline/cudnn_convolution.hpp).
#include "ops/conv1d/conv1d.hpp"
#include "ops/common/baseline/cudnn_convolution.hpp"

namespace kbv::ops::conv1d {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  return baseline::make_cudnn_convolution_step(node, context, Definition::form);
}

}  // namespace kbv::ops::conv1d
