// ops/unflatten/unflatten.hpp — unflatten: splits one axis in two, [size, E/size], or [E/s, s]
// for size = −s (torch.unflatten).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::unflatten {

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "unflatten";
  // torch.unflatten has no defaults. A negative size fixes the trailing factor, so one
  // attribute serves every shape set when only that factor is fixed (Swin's 7×7 windows).
  static constexpr std::array attributes{Attribute{"axis", 0}, Attribute{"size", 1}};
  static constexpr std::string_view semantics =
      "axis of extent E becomes [size, E/size]; size = −s gives (-1, s), [E/s, s]; |size| must "
      "divide E; a copy";
  static constexpr std::string_view pytorch = "torch.unflatten(x, axis, (size, -1) if size > 0 else (-1, -size))";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::unflatten
