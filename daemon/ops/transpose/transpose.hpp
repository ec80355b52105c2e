// ops/transpose/transpose.hpp — transpose: swaps two axes (torch.transpose), written out
// contiguously.
#pragma once

#include <vector>

#include "ops/common/layout_definition.hpp"

namespace kbv::ops::transpose {

struct Definition : layout::LayoutDefinition {
  static constexpr std::string_view name = "transpose";
  // torch.transpose has no defaults; 0 and 1 are a matrix's transpose.
  static constexpr std::array attributes{Attribute{"axis0", 0}, Attribute{"axis1", 1}};
  static constexpr std::string_view semantics =
      "a contiguous copy of the transposed view; a permute is a chain of transposes";
  static constexpr std::string_view pytorch = "torch.transpose(x, axis0, axis1).contiguous()";
};

// The output shape and copies of one application (host.cpp); throws OpError for inputs or
// attributes the op refuses. Every face runs it.
layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs);

}  // namespace kbv::ops::transpose
