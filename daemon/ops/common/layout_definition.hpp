// ops/common/layout_definition.hpp — what every layout op's descriptor shares (category, one
// input by default, exact precision, no FLOPs), and the plan function each declares: its output
// shape and strided copies (ops/common/strided_copy.hpp), run by all its faces.
#pragma once

#include <vector>

#include "ops/common/definition.hpp"
#include "ops/common/strided_copy.hpp"

namespace kbv::ops::layout {

// A layout op's Definition derives from this and adds name, attributes, semantics and pytorch
// (cat and stack also their inputs).
struct LayoutDefinition {
  static constexpr OpCategory category = OpCategory::layout;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view flops_rule = "0 (it moves bytes only)";
};

}  // namespace kbv::ops::layout
