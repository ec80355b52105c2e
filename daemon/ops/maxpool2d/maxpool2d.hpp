// ops/maxpool2d/maxpool2d.hpp — 2-D max pooling over NCHW input (torch.nn.functional.max_pool2d);
// the descriptor is ops/common/pool_definition.hpp's, the window walk ops/common/pool_window.hpp's.
#pragma once

#include "ops/common/pool_definition.hpp"

namespace kbv::ops::maxpool2d {

struct Definition : MaxPoolDefinition<2> {
  static constexpr std::string_view name = "maxpool2d";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.max_pool2d(x, kernel, stride or kernel, padding, dilation, ceil_mode)";
};

}  // namespace kbv::ops::maxpool2d
