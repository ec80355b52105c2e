// ops/cumprod/cumprod.hpp — cumprod: the running product along one axis, optionally from its end
// (reverse) or excluding the element itself (exclusive) (torch.cumprod).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::cumprod {

struct Definition {
  static constexpr std::string_view name = "cumprod";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.cumprod needs a dim; kbv defaults to the last one. reverse: x.flip(d).cumprod(d).flip(d)
  // (L1 #91); exclusive: y_0 = 1, y_i over j < i (L1 #92).
  static constexpr std::array attributes{Attribute{"axis", -1}, Attribute{"reverse", 0}, Attribute{"exclusive", 0}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "reverse: y_i over j ≥ i; exclusive: over j < i (j > i reversed), the first 1";
  static constexpr std::string_view flops_rule = "extent − 1 − exclusive per line along the axis";
  static constexpr std::string_view pytorch = "torch.cumprod(x, dim=axis)";
};

}  // namespace kbv::ops::cumprod
