// ops/avgpool2d/avgpool2d.hpp — 2-D average pooling over NCHW input
// (torch.nn.functional.avg_pool2d); the descriptor is ops/common/pool_definition.hpp's, the window
// walk ops/common/pool_window.hpp's.
#pragma once

#include "ops/common/pool_definition.hpp"

namespace kbv::ops::avgpool2d {

struct Definition : AvgPoolDefinition<2> {
  static constexpr std::string_view name = "avgpool2d";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.avg_pool2d(x, kernel, stride or kernel, padding, ceil_mode, count_include_pad)";
};

}  // namespace kbv::ops::avgpool2d
