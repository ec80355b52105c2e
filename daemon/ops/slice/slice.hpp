// ops/slice/slice.hpp — slice: x[..., start:end:step, ...] along one axis (Python slicing).
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::slice {

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "slice";
  // The whole axis by default: `end` 0 means the axis' end (an empty slice is no kbv
  // tensor), and negative start/end count from the end, so one value serves every shape set.
  static constexpr std::array attributes{Attribute{"axis", 0}, Attribute{"start", 0},
                                         Attribute{"end", 0}, Attribute{"step", 1}};
  static constexpr std::string_view semantics =
      "along `axis`; end 0 means the axis' end; negative start/end count from it; both clamped to "
      "[0, E] as Python slicing; step ≥ 1; at least one element; a copy";
  static constexpr std::string_view pytorch = "x[(slice(None),) * (axis % x.dim()) + (slice(start, end or None, step),)]";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::slice
