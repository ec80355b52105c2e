// ops/linear/linear.hpp — a linear layer x·Wᵀ + b over x[..., K] (torch.nn.functional.linear).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::linear {

struct Definition {
  static constexpr std::string_view name = "linear";
  static constexpr OpCategory category = OpCategory::product;
  static constexpr std::string_view inputs = "x[...,K], weight[N,K], bias[N]?";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 3;
  static constexpr std::array<Attribute, 0> attributes{};
  static constexpr PrecisionClass precision = PrecisionClass::tensor_core;
  static constexpr std::string_view semantics = "x·Wᵀ + b";
  static constexpr std::string_view flops_rule =
      "2·M·N·K (the bias is absorbed by an accumulator that starts from it)";
  static constexpr std::string_view pytorch = "torch.nn.functional.linear(x, weight, bias)";
};

}  // namespace kbv::ops::linear
