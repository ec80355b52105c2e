// ops/argmin/argmin.hpp — argmin: the first index of the minimum along one axis, as a float32
// value (torch.argmin).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::argmin {

struct Definition {
  static constexpr std::string_view name = "argmin";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.argmin(x, dim, keepdim=False); kbv defaults to the last axis.
  static constexpr std::array attributes{Attribute{"axis", -1}, Attribute{"keepdim", 0}};
  // Indices must match exactly (docs/problem-spec.md, "Tolerance rule").
  static constexpr PrecisionClass precision = PrecisionClass::index;
  static constexpr std::string_view semantics =
      "the first index on ties; a NaN beats every number (the first NaN's index); extent ≤ 2^24";
  static constexpr std::string_view flops_rule = "numel(in) − numel(out) (extent − 1 comparisons per output)";
  static constexpr std::string_view pytorch = "torch.argmin(x, dim=axis, keepdim=keepdim)";
};

}  // namespace kbv::ops::argmin
