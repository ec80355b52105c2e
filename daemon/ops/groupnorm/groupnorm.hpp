// ops/groupnorm/groupnorm.hpp — group normalisation: per sample and group of C/groups channels,
// the mean and biased variance (torch.nn.functional.group_norm); an optional per-channel weight
// and bias.
#pragma once

#include "ops/common/channel_norm.hpp"

namespace kbv::ops::groupnorm {

struct Definition : ChannelNormDefinition {
  static constexpr std::string_view name = "groupnorm";
  // torch.nn.GroupNorm: eps = 1e-5; num_groups has no default there, 1 here (layer norm over
  // every non-batch axis with a per-channel affine).
  static constexpr std::array attributes{Attribute{"groups", 1}, Attribute{"eps", 1e-5}};
  static constexpr std::string_view semantics =
      "per (n, group): mean and biased variance over the group's C/groups channels and every "
      "spatial position (two passes); groups divides C; weight and bias both or neither";
  static constexpr std::string_view pytorch = "torch.nn.functional.group_norm(x, groups, weight, bias, eps)";
};

}  // namespace kbv::ops::groupnorm
