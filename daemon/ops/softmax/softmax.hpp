// ops/softmax/softmax.hpp — numerically stable softmax along one axis (torch.softmax).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::softmax {

struct Definition {
  static constexpr std::string_view name = "softmax";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.nn.Softmax has no default dim; the last axis is the common choice.
  static constexpr std::array attributes{Attribute{"axis", -1}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "subtracts the max";
  static constexpr std::string_view flops_rule =
      "2 per element (the sum's add, the normalising divide; exp and the max subtraction not "
      "counted)";
  static constexpr std::string_view pytorch = "torch.softmax(x, dim=axis)";
};

}  // namespace kbv::ops::softmax
