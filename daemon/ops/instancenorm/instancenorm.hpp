// ops/instancenorm/instancenorm.hpp — instance normalisation: per sample and channel, the mean
// and biased variance over the spatial axes (torch.nn.functional.instance_norm with the input's
// statistics, nn.InstanceNorm*d's track_running_stats=False); an optional per-channel weight and
// bias (nn.InstanceNorm*d's affine=True; KernelBench's models have neither).
#pragma once

#include "ops/common/channel_norm.hpp"

namespace kbv::ops::instancenorm {

struct Definition : ChannelNormDefinition {
  static constexpr std::string_view name = "instancenorm";
  static constexpr std::array attributes{Attribute{"eps", 1e-5}};  // torch.nn.InstanceNorm*d
  static constexpr std::string_view semantics =
      "per (n, c): mean and biased variance over the spatial axes (at least one; two passes); "
      "weight and bias both or neither";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.instance_norm(x, weight=weight, bias=bias, use_input_stats=True, eps=eps)";
};

}  // namespace kbv::ops::instancenorm
