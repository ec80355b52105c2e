// ops/flatten/flatten.hpp — flatten: merges the axes start_axis..end_axis into one (torch.flatten).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::flatten {

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "flatten";
  // torch.flatten's defaults: every axis into one.
  static constexpr std::array attributes{Attribute{"start_axis", 0}, Attribute{"end_axis", -1}};
  static constexpr std::string_view semantics =
      "one axis of the product of start_axis..end_axis; a copy";
  static constexpr std::string_view pytorch =
      "torch.flatten(x, start_dim=start_axis, end_dim=end_axis)";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::flatten
