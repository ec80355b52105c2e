// ops/logsumexp/logsumexp.hpp — logsumexp over adjacent axes: m + log(Σ exp(x − m)), m the max
// (torch.logsumexp).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::logsumexp {

struct Definition {
  static constexpr std::string_view name = "logsumexp";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.logsumexp needs a dim; as sum, kbv defaults to the last one, kept.
  static constexpr std::array attributes{Attribute{"axis", -1}, Attribute{"count", 1}, Attribute{"keepdim", 1}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "subtracts the max; a non-finite max (all −inf, +inf, NaN) is the result";
  static constexpr std::string_view flops_rule = "numel(in) (one add per element into the sum; exp and log not counted)";
  static constexpr std::string_view pytorch = "torch.logsumexp(x, dim=[axis, …, axis + count − 1], keepdim=keepdim)";
};

}  // namespace kbv::ops::logsumexp
