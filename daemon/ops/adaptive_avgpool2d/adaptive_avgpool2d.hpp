// ops/adaptive_avgpool2d/adaptive_avgpool2d.hpp — 2-D adaptive average pooling over NCHW input
// (torch.nn.functional.adaptive_avg_pool2d); the descriptor is ops/common/pool_definition.hpp's,
// the window walk ops/common/pool_window.hpp's.
#pragma once

#include "ops/common/pool_definition.hpp"

namespace kbv::ops::adaptive_avgpool2d {

struct Definition : AdaptiveAvgPoolDefinition<2> {
  static constexpr std::string_view name = "adaptive_avgpool2d";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.adaptive_avg_pool2d(x, output_size)";
};

}  // namespace kbv::ops::adaptive_avgpool2d
