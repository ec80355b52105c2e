// ops/triu/triu.hpp — triu: the upper triangle of the last two axes, the rest 0
// (torch.triu).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::triu {

struct Definition {
  static constexpr std::string_view name = "triu";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x[..., rows, columns]";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // torch.triu(x, diagonal=0).
  static constexpr std::array attributes{Attribute{"diagonal", 0}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "keeps column − row ≥ diagonal";
  static constexpr std::string_view flops_rule = "0 (a masked copy)";
  static constexpr std::string_view pytorch = "torch.triu(x, diagonal)";
};

}  // namespace kbv::ops::triu
