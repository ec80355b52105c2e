// ops/maxpool3d/maxpool3d.hpp — 3-D max pooling over NCDHW input (torch.nn.functional.max_pool3d);
// the descriptor is ops/common/pool_definition.hpp's, the window walk ops/common/pool_window.hpp's.
#pragma once

#include "ops/common/pool_definition.hpp"

namespace kbv::ops::maxpool3d {

struct Definition : MaxPoolDefinition<3> {
  static constexpr std::string_view name = "maxpool3d";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.max_pool3d(x, kernel, stride or kernel, padding, dilation, ceil_mode)";
};

}  // namespace kbv::ops::maxpool3d
