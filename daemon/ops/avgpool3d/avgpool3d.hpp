// ops/avgpool3d/avgpool3d.hpp — 3-D average pooling over NCDHW input
// (torch.nn.functional.avg_pool3d); the descriptor is ops/common/pool_definition.hpp's, the window
// walk ops/common/pool_window.hpp's.
#pragma once

#include "ops/common/pool_definition.hpp"

namespace kbv::ops::avgpool3d {

struct Definition : AvgPoolDefinition<3> {
  static constexpr std::string_view name = "avgpool3d";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.avg_pool3d(x, kernel, stride or kernel, padding, ceil_mode, count_include_pad)";
};

}  // namespace kbv::ops::avgpool3d
