// ops/matmul/matmul.hpp — the matrix product a[M,K]·b[K,N] (torch.matmul on 2-D operands).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::matmul {

struct Definition {
  static constexpr std::string_view name = "matmul";
  static constexpr OpCategory category = OpCategory::product;
  static constexpr std::string_view inputs = "a[M,K], b[K,N]";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 2;
  static constexpr std::array<Attribute, 0> attributes{};
  static constexpr PrecisionClass precision = PrecisionClass::tensor_core;
  static constexpr std::string_view semantics = "";
  static constexpr std::string_view flops_rule = "2·M·N·K";
  static constexpr std::string_view pytorch = "torch.matmul(a, b)";
};

}  // namespace kbv::ops::matmul
