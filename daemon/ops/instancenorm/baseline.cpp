// daemon/ops/instancenorm/baseline.cpp — instancenorm's CUDA baseline, what PyTorch eager runs:
// at::instance_norm views x as [1, N·C, *] and calls batch_norm in training mode with
// weight.repeat(N) and bias.repeat(N). Without weight and bias (nn.InstanceNorm*d's default, every
// KernelBench model) that is PyTorch's native batch_norm kernels: kbv's Welford kernels
// (ops/common/baseline/channel_norm_f32.hpp). With them, cuDNN's batch norm on the view where
// PyTorch's backend rule picks it (fewer than 2³¹ − 1 elements: ops/common/baseline/cudnn_batch_norm.hpp).
#include "ops/common/baseline/channel_norm_f32.hpp"
#include "ops/common/baseline/cudnn_batch_norm.hpp"

namespace kbv::ops::instancenorm {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Shape& x = node.input_shapes.at(0);
  const double eps = node.attr("eps");
  Shape view = x;  // [1, N·C, *]
  view[0] = 1;
  view[1] = x[0] * x[1];
  if (baseline::pytorch_batch_norm_uses_cudnn(view, node.input_shapes.size() == 3, eps))
    return baseline::make_cudnn_batch_norm_step(view, x[0], eps, context,
                                                "instancenorm, as PyTorch's batch_norm on [1, N·C, *]");
  return baseline::make_channel_norm_step(
      node, context, ChannelSets::per_group(x, x[1]),
      "instancenorm, as PyTorch's native batch_norm kernels on [1, N·C, *]");
}

}  // namespace kbv::ops::instancenorm
