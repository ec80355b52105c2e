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
  // torch.triu(x, diagonal=0); `fill` is what the dropped elements become: 0 as torch.triu, −inf
  // for a causal mask before a softmax (x.masked_fill(~ones.triu(), -inf): KernelBench L3 #43, #44, #50).
  static constexpr std::array attributes{Attribute{"diagonal", 0}, Attribute{"fill", 0}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "keeps column − row ≥ diagonal; the others become `fill` (any number but NaN)";
  static constexpr std::string_view flops_rule = "0 (a masked copy)";
  static constexpr std::string_view pytorch =
      "torch.triu(x, diagonal) if fill == 0 else x.masked_fill(~torch.ones_like(x, dtype=torch.bool).triu(diagonal), fill)";
};

}  // namespace kbv::ops::triu
