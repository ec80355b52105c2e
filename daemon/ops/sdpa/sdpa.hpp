// ops/sdpa/sdpa.hpp — scaled dot-product attention without a mask tensor or dropout
// (torch.nn.functional.scaled_dot_product_attention).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::sdpa {

struct Definition {
  static constexpr std::string_view name = "sdpa";
  static constexpr OpCategory category = OpCategory::product;
  static constexpr std::string_view inputs = "q[...,L,E], k[...,S,E], v[...,S,Ev]";
  static constexpr size_t min_inputs = 3;
  static constexpr size_t max_inputs = 3;
  // F.scaled_dot_product_attention(is_causal=False, scale=None); scale 0 stands for None.
  static constexpr std::array attributes{Attribute{"is_causal", 0}, Attribute{"scale", 0}};
  static constexpr PrecisionClass precision = PrecisionClass::tensor_core;
  static constexpr std::string_view semantics =
      "softmax(q·kᵀ·scale + M)·v, scale 0 meaning 1/√E; is_causal: M = −inf where j > i "
      "(top-left aligned), else 0; the softmax subtracts the row max; q, k, v share their batch "
      "axes";
  static constexpr std::string_view flops_rule =
      "2·ΠB·(E + Ev) per unmasked (i, j) pair: 2·ΠB·L·S·(E + Ev) unless causal (softmax not "
      "counted)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=is_causal, "
      "scale=scale or None)";
};

}  // namespace kbv::ops::sdpa
