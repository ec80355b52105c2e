// ops/rmsnorm/rmsnorm.hpp — RMS normalisation along one axis without weight, as KernelBench
// L1 #36: x / sqrt(mean(x², axis, keepdim) + eps).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::rmsnorm {

struct Definition {
  static constexpr std::string_view name = "rmsnorm";
  static constexpr OpCategory category = OpCategory::normalization;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // KernelBench L1 #36 (36_RMSNorm_.py): normalises dim 1 (features) with eps = 1e-5.
  static constexpr std::array attributes{Attribute{"axis", 1}, Attribute{"eps", 1e-5}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "no weight (KernelBench L1 #36)";
  static constexpr std::string_view flops_rule = "3 per element (square, add, divide)";
  static constexpr std::string_view pytorch =
      "x / torch.sqrt(torch.mean(x ** 2, dim=axis, keepdim=True) + eps)";
};

}  // namespace kbv::ops::rmsnorm
