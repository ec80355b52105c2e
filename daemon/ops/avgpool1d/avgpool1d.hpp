// ops/avgpool1d/avgpool1d.hpp — 1-D average pooling over [N, C, L]
// (torch.nn.functional.avg_pool1d); the descriptor is ops/common/pool_definition.hpp's, the window
// walk ops/common/pool_window.hpp's.
#pragma once

#include "ops/common/pool_definition.hpp"

namespace kbv::ops::avgpool1d {

struct Definition : AvgPoolDefinition<1> {
  static constexpr std::string_view name = "avgpool1d";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.avg_pool1d(x, kernel, stride or kernel, padding, ceil_mode, count_include_pad)";
};

}  // namespace kbv::ops::avgpool1d
