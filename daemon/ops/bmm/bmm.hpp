// ops/bmm/bmm.hpp — the batched matrix product a[B,M,K]·b[B,K,N] (torch.bmm).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::bmm {

struct Definition {
  static constexpr std::string_view name = "bmm";
  static constexpr OpCategory category = OpCategory::product;
  static constexpr std::string_view inputs = "a[B,M,K], b[B,K,N]";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 2;
  static constexpr std::array<Attribute, 0> attributes{};
  static constexpr PrecisionClass precision = PrecisionClass::tensor_core;
  static constexpr std::string_view semantics = "";
  static constexpr std::string_view flops_rule = "2·B·M·N·K";
  static constexpr std::string_view pytorch = "torch.bmm(a, b)";
};

}  // namespace kbv::ops::bmm
