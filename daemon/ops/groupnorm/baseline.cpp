// daemon/ops/groupnorm/baseline.cpp — groupnorm's CUDA baseline: kbv's Welford kernels
// (ops/common/baseline/channel_norm_f32.hpp), as PyTorch eager's native_group_norm CUDA kernels
// (RowwiseMoments per (n, group), then the per-channel affine); PyTorch calls no library here.
#include "ops/common/baseline/channel_norm_f32.hpp"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::groupnorm {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const ChannelSets sets =
      ChannelSets::per_group(node.input_shapes.at(0), baseline::int_attr(node, "groups", 1));
  return baseline::make_channel_norm_step(node, context, sets,
                                          "groupnorm, as PyTorch's native_group_norm kernels");
}

}  // namespace kbv::ops::groupnorm
