// ops/sum/sum.hpp — sum over adjacent axes, keeping them as size 1 or dropping them (torch.sum).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::sum {

struct Definition {
  static constexpr std::string_view name = "sum";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.sum needs a dim; kbv defaults to the last one, kept as size 1.
  // `count` adjacent axes from `axis` (torch.sum(x, dim=[2, 3]) is axis 2, count 2).
  static constexpr std::array attributes{Attribute{"axis", -1}, Attribute{"count", 1}, Attribute{"keepdim", 1}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "";
  static constexpr std::string_view flops_rule =
      "numel(in) − numel(out) (extent − 1 adds per output, exact for any summation order)";
  static constexpr std::string_view pytorch = "torch.sum(x, dim=[axis, …, axis + count − 1], keepdim=keepdim)";
};

}  // namespace kbv::ops::sum
