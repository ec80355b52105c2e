// ops/select/select.hpp — select: one index along an axis, the axis removed (Tensor.select).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::select {

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "select";
  // Tensor.select has no defaults; a negative index counts from the end of the axis.
  static constexpr std::array attributes{Attribute{"axis", 0}, Attribute{"index", 0}};
  static constexpr std::string_view semantics =
      "index in [−E, E), negative from the end; removes the axis; a copy";
  static constexpr std::string_view pytorch = "x.select(axis, index)";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::select
