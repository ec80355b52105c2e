// ops/layernorm/layernorm.hpp — layer normalisation over the trailing dims, with optional
// elementwise weight and bias (torch.nn.functional.layer_norm).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::layernorm {

struct Definition {
  static constexpr std::string_view name = "layernorm";
  static constexpr OpCategory category = OpCategory::normalization;
  static constexpr std::string_view inputs = "x, weight?, bias?";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 3;
  // torch.nn.LayerNorm: eps = 1e-5; one normalised (trailing) dim unless told otherwise.
  static constexpr std::array attributes{Attribute{"normalized_rank", 1}, Attribute{"eps", 1e-5}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "normalises over the trailing `normalized_rank` dims with the biased variance (two passes); "
      "weight/bias shaped like those dims";
  static constexpr std::string_view flops_rule =
      "4 per element (mean add, variance multiply and add, one output op)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.layer_norm(x, x.shape[-normalized_rank:], weight, bias, eps)";
};

}  // namespace kbv::ops::layernorm
