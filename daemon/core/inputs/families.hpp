// inputs/families.hpp — input distribution families, generated element by element from a
// counter-based Philox stream so host and device produce the same values.
//
// Value of element `index` of input `tensor` for a trial seed: a pure function of (family,
// params, seed, tensor, index, the tensor's axes, scale). Only IEEE-exact operations and
// double-precision libm calls whose result is rounded to float are used, so the host and the
// CUDA device agree except in the rare case where a 1-ulp double difference straddles a float
// rounding boundary (probability about 2^-28 per transcendental element).
//
// Structured families (channel_affine, outliers, trend) also depend on the element's position
// along every axis of its tensor (inputs/tensor_axes.hpp) and on the family's structure seed
// (params.structure): the same for every trial of an epoch, so channels keep their statistics
// from call to call as a model's activations do, while the trial seed draws fresh noise.
#pragma once

#include <cmath>
#include <cstdint>

#include "inputs/input_domain.hpp"
#include "inputs/philox.hpp"
#include "inputs/tensor_axes.hpp"

namespace kbv::inputs {

enum class Family : uint32_t {
  uniform01 = 0,  // public: KernelBench's torch.rand, U[0,1)
  negated,        // -U[0,1)                         (KernelBench-Verified ×−1)
  scaled3,        // 3·U[0,1)                        (KernelBench-Verified ×3)
  scaled001,      // 0.01·U[0,1)                     (KernelBench-Verified ×0.01)
  normal,         // N(0,1)
  shifted,        // N(a, 1), shift a ∈ [5, 50]
  large,          // N(0,1)·a, a ∈ [2e4, 1e5]: a share of elements beyond fp16's 65504
  heavy_tailed,   // symmetric Pareto: ±(u^(−1/a) − 1), α = a ∈ [2, 3]
  sparse,         // N(0,1) with a fraction a ∈ [0.5, 0.95] of exact zeros
  tiny,           // N(0,1)·a, a ∈ [1e-6, 1e-4]
  per_row_scale,  // N(0,1)·10^r per row (innermost axis), r ∈ U(−a, a), a ∈ [1, 3]
  channel_affine, // s·(N(0,1) + a·m), m = channel_mean() ∈ [-1, 1] from a drift and keyed offsets along
                  // every axis, a ∈ [0.5, 1.5]; log2 s keyed per position, ±b ∈ [1, 3] on the lead axis
                  // and ±b/2 on the others
  outliers,       // N(0,1) + m (m as channel_affine's, a = 1), and along the lead axis a keyed share
                  // b ∈ [0.005, 0.02] of channels (at least one) a ∈ [20, 100] times larger (LLM.int8())
  trend,          // N(0,1) + a·(weighted mean over the axes of ±(2t^γ − 1)), t the position along the
                  // axis in (0, 1), a ∈ [0.5, 1.5], γ = b ∈ [0.5, 2] on the lead axis
  wide_range,     // ±10^e, e ∈ U(a, b), a ∈ [−6.5, −5.5], b ∈ [5, 5.3]: inside fp32's exponent range, outside fp16's
  rare_signs,     // U[0,1) with a keyed fraction a ∈ [2e-4, 1e-3] of elements negated
  rare_spikes,    // U[0,1) with a keyed fraction a ∈ [4e-4, 2e-3] of elements ±b·U[0.5, 1), b ∈ [1e2, 1e3]
  count
};

constexpr uint32_t kFamilyCount = static_cast<uint32_t>(Family::count);

// Family-specific parameters drawn per epoch (see epoch_plan.hpp); their meaning is in the enum.
struct FamilyParams {
  double a = 0;
  double b = 0;
  uint64_t structure = 0;  // structured families: the seed of the per-channel words
  uint64_t discrete = 0;   // int64 and bool inputs: a keyed word (discrete_families.hpp)
};

// A secondary axis's share of the structure, against 1 for the lead axis: large enough that a
// split reduction along any axis sees blocks with different means (docs/threat-model.md),
// small enough that the lead axis dominates.
constexpr double kSecondaryAxisWeight = 0.5;
// outliers: the mean bound of every channel, outlier or not, in units of its noise.
constexpr double kOutlierBaseOffset = 1.5;

// What an element's value needs besides its own words: r0 and r1 for every family, r2 for
// sparse and the rare families (uses_third_word), row0 (the element's row's word) for
// per_row_scale (uses_row_word), the position along every axis for the structured families.
KBV_HD constexpr bool uses_third_word(Family family) {
  return family == Family::sparse || family == Family::rare_signs || family == Family::rare_spikes;
}
KBV_HD constexpr bool uses_row_word(Family family) { return family == Family::per_row_scale; }
// Whether a family's value is a standard normal of (r0, r1) (Box–Muller: r0 the radius, r1 the
// angle), so r1 is a full word; the other families read r1 for its lowest bit alone (a sign), if
// at all. The CUDA timing draw gives two elements one pair of words, a quarter turn apart, for
// the first; one word each for the others (tests/unit/inputs_test.cpp checks the split).
KBV_HD constexpr bool uses_normal(Family family) {
  switch (family) {
    case Family::normal:
    case Family::shifted:
    case Family::large:
    case Family::sparse:
    case Family::tiny:
    case Family::per_row_scale:
    case Family::channel_affine:
    case Family::outliers:
    case Family::trend: return true;
    default: return false;
  }
}
KBV_HD constexpr bool is_structured(Family family) {
  return family == Family::channel_affine || family == Family::outliers || family == Family::trend;
}

// The structured families' terms for one element, from its position along every axis longer
// than 1, as weighted means over those axes (lead axis 1, others kSecondaryAxisWeight):
//   drift    s·(2t − 1): a keyed-sign ramp along each axis (t = (position + ½) / extent), so
//            contiguous blocks along any axis, few or many, have different means;
//   offset   keyed per position in [-1, 1): every channel its own mean;
//   trend    s·(2t^γ − 1): a keyed-sign smooth monotone curve, γ = b on the lead axis and keyed in
//            [0.5, 2] on the others;
// and a weighted sum of keyed per-position log2 scales in [-1, 1) (log2_scale), and whether the
// position along the lead axis is an outlier channel (at least one is: the keyed first).
template <class Real>
struct AxisTerms {
  Real drift = 0;
  Real offset = 0;
  Real trend = 0;
  Real log2_scale = 0;
  bool outlier = false;
};

// The terms' sums before the weighted means: axes are added one at a time, in increasing axis
// order, so a caller that walks consecutive elements (the CUDA timing draw) can add the axes their
// positions share once and the innermost one per element, with the same sums in the same order.
template <class Real>
struct AxisSums {
  AxisTerms<Real> sums;
  Real weights = 0;
};

// Adds axis `a` (extent > 1) at `position` along it to `into`.
template <class Real>
KBV_HD inline void add_axis_terms(AxisSums<Real>& into, Family family, const FamilyParams& params, uint32_t tensor, uint64_t position,
                                  const TensorAxes& axes, uint32_t a) {
  const Real kWordUnit = static_cast<Real>(1.0 / 65536.0);
  const bool lead = a == axes.lead;
  const Real weight = lead ? static_cast<Real>(1) : static_cast<Real>(kSecondaryAxisWeight);
  const uint32_t word = axes.axis_word[a];
  const Real sign = (word >> 31) ? static_cast<Real>(1) : static_cast<Real>(-1);
  const Real t = (static_cast<Real>(position) + static_cast<Real>(0.5)) / static_cast<Real>(axes.extent[a]);
  AxisTerms<Real>& terms = into.sums;
  into.weights += weight;
  if (family == Family::trend) {
    // γ ∈ [0.5, 2], log-uniform on the secondary axes.
    const Real curvature = lead ? static_cast<Real>(params.b)
                                : exp2(static_cast<Real>(2) * static_cast<Real>(word & 0xffffu) * kWordUnit - static_cast<Real>(1));
    terms.trend += weight * sign * (static_cast<Real>(2) * pow(t, curvature) - static_cast<Real>(1));
    return;
  }
  terms.drift += weight * sign * (static_cast<Real>(2) * t - static_cast<Real>(1));
  const auto words = philox_block(params.structure, tensor, position, kGroupStream + a);
  terms.offset += weight * unit_symmetric<Real>(words[0]);
  terms.log2_scale += weight * unit_symmetric<Real>(words[1]);
  if (lead && family == Family::outliers)
    terms.outlier = position == word % axes.extent[a] || unit_closed_open<Real>(words[2]) < static_cast<Real>(params.b);
}

// The weighted means of the sums (log2_scale stays a sum).
template <class Real>
KBV_HD inline AxisTerms<Real> mean_terms(AxisSums<Real> sums) {
  if (sums.weights > 0) {
    sums.sums.drift = sums.sums.drift / sums.weights;
    sums.sums.offset = sums.sums.offset / sums.weights;
    sums.sums.trend = sums.sums.trend / sums.weights;
  }
  return sums.sums;
}

template <class Real>
KBV_HD inline AxisTerms<Real> axis_terms(Family family, const FamilyParams& params, uint32_t tensor, uint64_t index,
                                         const TensorAxes& axes) {
  AxisSums<Real> sums;
  for (uint32_t a = 0; a < axes.rank; ++a)
    if (axes.extent[a] > 1) add_axis_terms(sums, family, params, tensor, axis_position(index, axes, a), axes, a);
  return mean_terms(sums);
}

// The mean of a channel_affine or outliers channel, in units of its noise: half drift, half its own.
template <class Real>
KBV_HD inline Real channel_mean(const AxisTerms<Real>& terms) {
  return static_cast<Real>(0.5) * terms.drift + static_cast<Real>(0.5) * terms.offset;
}

// A structured family's value from its element's words and axis terms, before the tensor's scale.
template <class Real>
KBV_HD inline Real structured_value(Family family, const FamilyParams& params, uint32_t r0, uint32_t r1, const AxisTerms<Real>& terms) {
  const Real a = static_cast<Real>(params.a);
  const Real b = static_cast<Real>(params.b);
  switch (family) {
    case Family::channel_affine: return exp2(b * terms.log2_scale) * (standard_normal<Real>(r0, r1) + a * channel_mean(terms));
    case Family::outliers: {
      const Real value = standard_normal<Real>(r0, r1) + static_cast<Real>(kOutlierBaseOffset) * channel_mean(terms);
      return terms.outlier ? value * a : value;
    }
    case Family::trend: return standard_normal<Real>(r0, r1) + a * terms.trend;
    default: return static_cast<Real>(0);
  }
}

// The value of one element from its random words, before the tensor's own scale.
template <class Real = double>
KBV_HD inline Real family_value_from_bits(Family family, const FamilyParams& params, uint32_t r0, uint32_t r1, uint32_t r2,
                                          uint32_t row0, uint32_t tensor, uint64_t index, const TensorAxes& axes) {
  const Real a = static_cast<Real>(params.a);
  const Real b = static_cast<Real>(params.b);
  switch (family) {
    case Family::uniform01: return unit_closed_open<Real>(r0);
    case Family::negated: return -unit_closed_open<Real>(r0);
    case Family::scaled3: return static_cast<Real>(3) * unit_closed_open<Real>(r0);
    case Family::scaled001: return static_cast<Real>(0.01) * unit_closed_open<Real>(r0);
    case Family::normal: return standard_normal<Real>(r0, r1);
    case Family::shifted: return standard_normal<Real>(r0, r1) + a;
    case Family::large: return standard_normal<Real>(r0, r1) * a;
    case Family::heavy_tailed: {
      const Real magnitude = pow(unit_open<Real>(r0), static_cast<Real>(-1) / a) - static_cast<Real>(1);
      return (r1 & 1u) ? magnitude : -magnitude;
    }
    case Family::sparse:
      return unit_closed_open<Real>(r2) < a ? static_cast<Real>(0) : standard_normal<Real>(r0, r1);
    case Family::tiny: return standard_normal<Real>(r0, r1) * a;
    case Family::per_row_scale: {
      const Real exponent = (static_cast<Real>(2) * unit_closed_open<Real>(row0) - static_cast<Real>(1)) * a;
      return standard_normal<Real>(r0, r1) * pow(static_cast<Real>(10), exponent);
    }
    // Each with its family a constant, so that structured_value's switch folds away when inlined.
    case Family::channel_affine:
      return structured_value<Real>(Family::channel_affine, params, r0, r1, axis_terms<Real>(Family::channel_affine, params, tensor, index, axes));
    case Family::outliers:
      return structured_value<Real>(Family::outliers, params, r0, r1, axis_terms<Real>(Family::outliers, params, tensor, index, axes));
    case Family::trend:
      return structured_value<Real>(Family::trend, params, r0, r1, axis_terms<Real>(Family::trend, params, tensor, index, axes));
    case Family::wide_range: {
      const Real magnitude = pow(static_cast<Real>(10), a + (b - a) * unit_closed_open<Real>(r0));
      return (r1 & 1u) ? magnitude : -magnitude;
    }
    case Family::rare_signs:
      return unit_closed_open<Real>(r2) < a ? -unit_closed_open<Real>(r0) : unit_closed_open<Real>(r0);
    case Family::rare_spikes: {
      if (!(unit_closed_open<Real>(r2) < a)) return unit_closed_open<Real>(r0);
      const Real magnitude = b * (static_cast<Real>(0.5) + static_cast<Real>(0.5) * unit_closed_open<Real>(r0));
      return (r1 & 1u) ? magnitude : -magnitude;
    }
    default: return static_cast<Real>(0);
  }
}

// The value of element `index` of the bit-exact draw (host and device alike), before the
// tensor's own scale: one Philox block per element, one per row for per_row_scale. `axes` as
// structured_axes() returns them.
template <class Real = double>
KBV_HD inline Real family_value(Family family, const FamilyParams& params, uint64_t seed, uint32_t tensor, uint64_t index,
                                const TensorAxes& axes) {
  const auto r = philox_block(seed, tensor, index, kElementStream);
  uint32_t row0 = 0;
  if (uses_row_word(family)) row0 = philox_block(seed, tensor, index / row_length(axes), kRowStream)[0];
  return family_value_from_bits<Real>(family, params, r[0], r[1], r[2], row0, tensor, index, axes);
}

// `domain`: the values the ops reading the tensor accept (inputs/input_domain.hpp).
KBV_HD inline float generate_element(Family family, const FamilyParams& params, uint64_t seed, uint32_t tensor, uint64_t index,
                                     const TensorAxes& axes, double scale, InputDomain domain = InputDomain::any) {
  return static_cast<float>(within_domain(domain, family_value(family, params, seed, tensor, index, axes)) * scale);
}

}  // namespace kbv::inputs
