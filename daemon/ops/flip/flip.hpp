// ops/flip/flip.hpp — flip: reverses one axis (torch.flip(x, [axis])).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::flip {

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "flip";
  // torch.flip needs its dims; one axis, as KernelBench flips (several flips chain).
  static constexpr std::array attributes{Attribute{"axis", 0}};
  static constexpr std::string_view semantics = "element i of the axis becomes element E − 1 − i";
  static constexpr std::string_view pytorch = "torch.flip(x, dims=[axis])";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::flip
