// ops/log_softmax/log_softmax.hpp — numerically stable log_softmax along one axis
// (torch.log_softmax): x − max − log Σ exp(x − max).
#pragma once

#include "ops/common/definition.hpp"

namespace kbv::ops::log_softmax {

struct Definition {
  static constexpr std::string_view name = "log_softmax";
  static constexpr OpCategory category = OpCategory::axis;
  static constexpr std::string_view inputs = "x";
  static constexpr size_t min_inputs = 1;
  static constexpr size_t max_inputs = 1;
  // As softmax: torch.nn.LogSoftmax has no default dim; the last axis is the common choice.
  static constexpr std::array attributes{Attribute{"axis", -1}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics = "x − max − log Σ exp(x − max)";
  static constexpr std::string_view flops_rule =
      "2 per element (the sum's add, the subtraction of its log; exp, log and the max not counted)";
  static constexpr std::string_view pytorch = "torch.log_softmax(x, dim=axis)";
};

}  // namespace kbv::ops::log_softmax
