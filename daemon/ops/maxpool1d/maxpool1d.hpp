// ops/maxpool1d/maxpool1d.hpp — 1-D max pooling over [N, C, L] (torch.nn.functional.max_pool1d);
// the descriptor is ops/common/pool_definition.hpp's, the window walk ops/common/pool_window.hpp's.
#pragma once

#include "ops/common/pool_definition.hpp"

namespace kbv::ops::maxpool1d {

struct Definition : MaxPoolDefinition<1> {
  static constexpr std::string_view name = "maxpool1d";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.max_pool1d(x, kernel, stride or kernel, padding, dilation, ceil_mode)";
};

}  // namespace kbv::ops::maxpool1d
