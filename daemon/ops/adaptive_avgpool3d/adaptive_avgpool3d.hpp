// ops/adaptive_avgpool3d/adaptive_avgpool3d.hpp — 3-D adaptive average pooling over NCDHW input
// (torch.nn.functional.adaptive_avg_pool3d); the descriptor is ops/common/pool_definition.hpp's,
// the window walk ops/common/pool_window.hpp's.
#pragma once

#include "ops/common/pool_definition.hpp"

namespace kbv::ops::adaptive_avgpool3d {

struct Definition : AdaptiveAvgPoolDefinition<3> {
  static constexpr std::string_view name = "adaptive_avgpool3d";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.adaptive_avg_pool3d(x, output_size)";
};

}  // namespace kbv::ops::adaptive_avgpool3d
