// ops/smooth_l1_loss/smooth_l1_loss.hpp — the Smooth L1 (Huber) loss, mean over every element
// (torch.nn.functional.smooth_l1_loss, reduction='mean'): the descriptor and the per-element term
// every face evaluates.
#pragma once

#include "ops/common/definition.hpp"
#include "ops/common/scalar_math.hpp"

namespace kbv::ops::smooth_l1_loss {

struct Definition {
  static constexpr std::string_view name = "smooth_l1_loss";
  static constexpr OpCategory category = OpCategory::axis;  // a reduction over every axis
  static constexpr std::string_view inputs = "a, b (one shape)";
  static constexpr size_t min_inputs = 2;
  static constexpr size_t max_inputs = 2;
  // torch.nn.SmoothL1Loss(beta=1.0).
  static constexpr std::array attributes{Attribute{"beta", 1.0}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "mean over every element of abs(d) < beta ? 0.5·d²/beta : abs(d) − 0.5·beta, d = a − b "
      "(beta 0: abs(d)); output rank 0";
  static constexpr std::string_view flops_rule =
      "3 per element (the difference, the term, the sum's add)";
  static constexpr std::string_view pytorch = "torch.nn.functional.smooth_l1_loss(a, b, beta=beta)";

  // One element's loss; beta 0 never takes the quadratic branch, so it never divides by it.
  template <class T>
  KBV_HOST_DEVICE static T term(T a, T b, T beta) {
    const T d = a - b;
    const T z = math::fabs(d);
    return z < beta ? T(0.5) * d * d / beta : z - T(0.5) * beta;
  }
};

}  // namespace kbv::ops::smooth_l1_loss
