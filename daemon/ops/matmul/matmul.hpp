// ops/matmul/matmul.hpp — the matrix product torch.matmul computes for operands of rank >= 2:
// a[..., M, K]·b[..., K, N], the leading axes broadcast, either operand optionally stored
// transposed in its last two axes.
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::matmul {

struct Definition {
  static constexpr std::string_view name = "matmul";
  static constexpr OpCategory category = OpCategory::product;
  static constexpr std::string_view inputs = "a[...,M,K], b[...,K,N]";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 2;
  // The importer folds a transpose of the last two axes that only feeds the matmul into these
  // flags, so the baseline passes cuBLAS op(A)/op(B) as PyTorch does (scripts/kernelbench/OPS.md).
  static constexpr std::array attributes{Attribute{"transpose_a", 0}, Attribute{"transpose_b", 0}};
  static constexpr PrecisionClass precision = PrecisionClass::tensor_core;
  static constexpr std::string_view semantics =
      "leading axes broadcast (numpy, right-aligned); transpose_a/transpose_b: that operand is "
      "stored transposed in its last two axes (a[...,K,M], b[...,N,K]), i.e. a.mT/b.mT";
  static constexpr std::string_view flops_rule = "2·numel(out)·K";
  static constexpr std::string_view pytorch = "torch.matmul(a.mT if transpose_a else a, b.mT if transpose_b else b)";
};

}  // namespace kbv::ops::matmul
