// ops/triplet_margin_loss/triplet_margin_loss.hpp — the triplet margin loss, mean over the batch
// (torch.nn.functional.triplet_margin_loss, reduction='mean'): the descriptor and the per-row
// arithmetic every face evaluates.
#pragma once

#include "ops/common/definition.hpp"
#include "ops/common/scalar_math.hpp"

namespace kbv::ops::triplet_margin_loss {

struct Definition {
  static constexpr std::string_view name = "triplet_margin_loss";
  static constexpr OpCategory category = OpCategory::axis;  // a reduction over every axis
  static constexpr std::string_view inputs = "anchor[N,D], positive[N,D], negative[N,D]";
  static constexpr size_t min_inputs = 3;
  static constexpr size_t max_inputs = 3;
  // torch.nn.TripletMarginLoss(margin=1.0, p=2.0, eps=1e-6, swap=False).
  static constexpr std::array attributes{Attribute{"margin", 1.0}, Attribute{"p", 2.0},
                                         Attribute{"eps", 1e-6}, Attribute{"swap", 0}};
  static constexpr PrecisionClass precision = PrecisionClass::exact;
  static constexpr std::string_view semantics =
      "mean over n of max(d(a, p) − d(a, n) + margin, 0), d(x, y) = ‖x − y + eps‖_p along D "
      "(F.pairwise_distance); swap: d(a, n) = min(d(a, n), d(p, n)); margin > 0, p > 0; output "
      "rank 0";
  static constexpr std::string_view flops_rule =
      "6 per element of anchor (per distance a difference, a power or square, an add)";
  static constexpr std::string_view pytorch =
      "torch.nn.functional.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap)";

  // The norm's summand for one component v = x − y + eps, and the norm from the sum of them:
  // p 2 and 1 as PyTorch's norm kernels special-case them, any other p through pow.
  template <class T>
  KBV_HOST_DEVICE static T norm_term(T v, T p) {
    if (p == T(2)) return v * v;
    if (p == T(1)) return math::fabs(v);
    return power(math::fabs(v), p);
  }
  template <class T>
  KBV_HOST_DEVICE static T norm_of(T sum, T p) {
    if (p == T(2)) return math::sqrt(sum);
    if (p == T(1)) return sum;
    return power(sum, T(1) / p);
  }
  // One row's loss from its three distances (d_pn is read only when swapping); a NaN distance
  // gives NaN, as torch.min and clamp_min propagate it.
  template <class T>
  KBV_HOST_DEVICE static T row_loss(T d_ap, T d_an, T d_pn, T margin, bool swap) {
    const bool pn_is_nan = d_pn != d_pn;
    const T negative = swap && (d_pn < d_an || pn_is_nan) ? d_pn : d_an;
    const T hinge = margin + d_ap - negative;  // PyTorch's order (aten Loss.cpp)
    return hinge < T(0) ? T(0) : hinge;
  }

#if defined(__CUDA_ARCH__)
  KBV_HOST_DEVICE static float power(float x, float y) { return ::powf(x, y); }
  KBV_HOST_DEVICE static double power(double x, double y) { return ::pow(x, y); }
#else
  KBV_HOST_DEVICE static float power(float x, float y) { return std::pow(x, y); }
  KBV_HOST_DEVICE static double power(double x, double y) { return std::pow(x, y); }
#endif
};

}  // namespace kbv::ops::triplet_margin_loss
