// ops/kl_div/kl_div.hpp — the Kullback-Leibler divergence loss with reduction='batchmean'
// (torch.nn.functional.kl_div): the descriptor and the per-element term every face evaluates.
#pragma once

#include "ops/common/definition.hpp"
#include "ops/common/scalar_math.hpp"

namespace kbv::ops::kl_div {

struct Definition {
  static constexpr std::string_view name = "kl_div";
  static constexpr OpCategory category = OpCategory::axis;  // a reduction over every axis
  static constexpr std::string_view inputs = "input, target (one shape)";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 2;
  // torch.nn.KLDivLoss(log_target=False).
  static constexpr std::array attributes{Attribute{"log_target", 0}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "Σ (xlogy(target, target) − target·input) / input.shape[0] (reduction='batchmean'; 0 where "
      "target is 0, NaN where it is negative); log_target 1: Σ exp(target)·(target − input) / "
      "input.shape[0]; output rank 0";
  static constexpr std::string_view flops_rule =
      "3 per element (the difference, the product, the sum's add; log and exp not counted)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.kl_div(input, target, reduction='batchmean', log_target=log_target)";

  // One element's term, as PyTorch's kl_div: xlogy(t, t) − t·x (xlogy is 0 where t is 0, so a
  // zero target contributes −0·x, NaN when x is ±inf), or exp(t)·(t − x) for a log target.
  template <class T>
  KBV_HOST_DEVICE static T term(T input, T target, bool log_target) {
    if (log_target) return math::exp(target) * (target - input);
    const T xlogy = target == T(0) ? T(0) : target * math::log(target);
    return xlogy - target * input;
  }
};

}  // namespace kbv::ops::kl_div
