// ops/amin/amin.hpp — amin: the minimum over adjacent axes, NaN propagating (torch.amin;
// torch.min(x, dim)[0] maps here).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::amin {

struct Definition {
  static constexpr std::string_view name = "amin";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // As sum: the last axis kept by default; `count` adjacent axes from `axis`.
  static constexpr std::array attributes{Attribute{"axis", -1}, Attribute{"count", 1}, Attribute{"keepdim", 1}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "NaN propagates";
  static constexpr std::string_view flops_rule = "numel(in) − numel(out) (extent − 1 comparisons per output)";
  static constexpr std::string_view pytorch = "torch.amin(x, dim=[axis, …, axis + count − 1], keepdim=keepdim)";
};

}  // namespace kbv::ops::amin
