// ops/cumsum/cumsum.hpp — cumsum: the running sum along one axis, optionally from its end
// (reverse) or excluding the element itself (exclusive) (torch.cumsum).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::cumsum {

struct Definition {
  static constexpr std::string_view name = "cumsum";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.cumsum needs a dim; kbv defaults to the last one. reverse: x.flip(d).cumsum(d).flip(d)
  // (L1 #91); exclusive: y_0 = 0, y_i over j < i (L1 #92).
  static constexpr std::array attributes{Attribute{"axis", -1}, Attribute{"reverse", 0}, Attribute{"exclusive", 0}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "reverse: y_i over j ≥ i; exclusive: over j < i (j > i reversed), the first 0";
  static constexpr std::string_view flops_rule = "extent − 1 − exclusive per line along the axis";
  static constexpr std::string_view pytorch =
      "(x.flip(axis).cumsum(axis).flip(axis) if reverse else torch.cumsum(x, dim=axis)) - (x if exclusive else 0)";
};

}  // namespace kbv::ops::cumsum
