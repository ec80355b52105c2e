// ops/batchnorm/batchnorm.hpp — batch normalisation in training mode, as KernelBench leaves
// every model: per channel, the batch's mean and biased variance (torch.nn.functional.batch_norm
// with training=True); an optional per-channel weight and bias.
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::batchnorm {

struct Definition {
  static constexpr std::string_view name = "batchnorm";
  static constexpr OpCategory category = OpCategory::normalization;
  static constexpr std::string_view inputs = "x[N,C,*], weight[C]?, bias[C]?";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 3;
  // torch.nn.BatchNorm*d: eps = 1e-5. momentum only updates the running statistics, which the
  // output never reads in training mode, so it is no attribute.
  static constexpr std::array attributes{Attribute{"eps", 1e-5}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "training mode: per channel, mean and biased variance over every axis but 1 (two passes); "
      "weight and bias both or neither; running statistics are no inputs (the output never "
      "reads them)";
  static constexpr std::string_view flops_rule =
      "4 per element (mean add, variance multiply and add, one output op)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.batch_norm(x, None, None, weight, bias, training=True, eps=eps)";
};

}  // namespace kbv::ops::batchnorm
