// daemon/ops/batchnorm/baseline.cpp — batchnorm's CUDA baseline, what PyTorch eager runs for
// batch_norm in training mode: cuDNN's cudnnBatchNormalizationForwardTrainingEx (SPATIAL) where
// PyTorch's backend rule picks cuDNN (weight and bias given, rank >= 3, fewer than 2³¹ − 1
// elements: ops/common/baseline/cudnn_batch_norm.hpp), and kbv's Welford kernels
// (ops/common/baseline/channel_norm_f32.hpp) where PyTorch runs its native batch_norm kernels (no
// affine part, a rank-2 [N, C] input, larger tensors).
#include "ops/common/baseline/channel_norm_f32.hpp"
#include "ops/common/baseline/cudnn_batch_norm.hpp"

namespace kbv::ops::batchnorm {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Shape& x = node.input_shapes.at(0);
  const double eps = node.attr("eps");
  if (baseline::pytorch_batch_norm_uses_cudnn(x, node.input_shapes.size() == 3, eps))
    return baseline::make_cudnn_batch_norm_step(x, 1, eps, context,
                                                "batchnorm, as PyTorch's cudnn_batch_norm");
  return baseline::make_channel_norm_step(node, context, ChannelSets::per_channel_over_batch(x),
                                          "batchnorm, where PyTorch runs its native batch_norm kernels");
}

}  // namespace kbv::ops::batchnorm
