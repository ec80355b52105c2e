// inputs/families.hpp — input distribution families, generated element by element from a
// counter-based Philox stream so host and device produce the same values.
//
// Value of element `index` of input `tensor` for a trial seed: a pure function of
// (family, params, seed, tensor, index, row_length, scale). Only IEEE-exact operations and
// double-precision libm calls whose result is rounded to float are used, so the host and the
// CUDA device agree except in the rare case where a 1-ulp double difference straddles a float
// rounding boundary (probability about 2^-28 per transcendental element).
#pragma once

#include <Random123/philox.h>

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define KBV_HD __host__ __device__
#else
#define KBV_HD
#endif

namespace kbv::inputs {

enum class Family : uint32_t {
  uniform01 = 0,  // public: KernelBench's torch.rand, U[0,1)
  negated,        // -U[0,1)                         (KernelBench-Verified ×−1)
  scaled3,        // 3·U[0,1)                        (KernelBench-Verified ×3)
  scaled001,      // 0.01·U[0,1)                     (KernelBench-Verified ×0.01)
  normal,         // N(0,1)
  shifted,        // N(shift, 1), shift ∈ [5, 50]
  large,          // N(0,1)·m, m ∈ [1e3, 1e4]
  heavy_tailed,   // symmetric Pareto: ±(u^(−1/α) − 1), α ∈ [2, 3]
  sparse,         // N(0,1) with a fraction p ∈ [0.5, 0.95] of exact zeros
  tiny,           // N(0,1)·m, m ∈ [1e-6, 1e-4]
  per_row_scale,  // N(0,1)·10^r per row, r ∈ U(−k, k), k ∈ [1, 3]
  count
};

constexpr uint32_t kFamilyCount = static_cast<uint32_t>(Family::count);

// Family-specific parameter drawn per epoch (see epoch_plan.hpp); its meaning is in the enum.
struct FamilyParams {
  double a = 0;
};

// Distinguishes the per-element stream from the per-row stream of one tensor.
constexpr uint32_t kElementStream = 0x6b627601u;  // "kbv\x01"
constexpr uint32_t kRowStream = 0x6b627602u;
// The CUDA timing draw's own streams (cuda/data/timing_inputs.cu): one block per pair of
// elements, a second block where a family needs a third word, and the per-row words.
constexpr uint32_t kTimingPairStream = 0x6b627611u;
constexpr uint32_t kTimingThirdWordStream = 0x6b627612u;
constexpr uint32_t kTimingRowStream = 0x6b627613u;

KBV_HD inline r123::Philox4x32::ctr_type philox_block(uint64_t seed, uint32_t tensor,
                                                      uint64_t counter, uint32_t stream) {
  r123::Philox4x32 generator;
  r123::Philox4x32::ctr_type ctr = {{static_cast<uint32_t>(counter),
                                     static_cast<uint32_t>(counter >> 32), tensor, stream}};
  r123::Philox4x32::key_type key = {{static_cast<uint32_t>(seed),
                                     static_cast<uint32_t>(seed >> 32)}};
  return generator(ctr, key);
}

// 24 random bits to [0,1) and (0,1): exactly representable in float. `Real` is double for
// every input that is checked against the fp64 reference (host and device bit for bit); the
// CUDA timing phase draws its per-sample inputs with Real = float from its own streams (same
// families, same parameters, fresh values; cuda/data/timing_inputs.cu).
template <class Real = double>
KBV_HD inline Real unit_closed_open(uint32_t bits) { return static_cast<Real>(bits >> 8) * static_cast<Real>(1.0 / 16777216.0); }
template <class Real = double>
KBV_HD inline Real unit_open(uint32_t bits) { return (static_cast<Real>(bits >> 8) + static_cast<Real>(0.5)) * static_cast<Real>(1.0 / 16777216.0); }

template <class Real = double>
KBV_HD inline Real standard_normal(uint32_t bits0, uint32_t bits1) {
  const Real kTwoPi = static_cast<Real>(6.283185307179586476925286766559);
  return sqrt(static_cast<Real>(-2) * log(unit_open<Real>(bits0))) * cos(kTwoPi * unit_closed_open<Real>(bits1));
}

// The value of one element from its random words, before the tensor's own scale: r0 and r1
// for every family, r2 for sparse only (uses_third_word), row0 (the element's row's word) for
// per_row_scale only (uses_row_word).
KBV_HD constexpr bool uses_third_word(Family family) { return family == Family::sparse; }
KBV_HD constexpr bool uses_row_word(Family family) { return family == Family::per_row_scale; }

template <class Real = double>
KBV_HD inline Real family_value_from_bits(Family family, FamilyParams params, uint32_t r0, uint32_t r1,
                                          uint32_t r2, uint32_t row0) {
  const Real a = static_cast<Real>(params.a);
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
    default: return static_cast<Real>(0);
  }
}

// The value of element `index` of the bit-exact draw (host and device alike), before the
// tensor's own scale: one Philox block per element, one per row for per_row_scale.
template <class Real = double>
KBV_HD inline Real family_value(Family family, FamilyParams params, uint64_t seed,
                                uint32_t tensor, uint64_t index, uint64_t row_length) {
  const auto r = philox_block(seed, tensor, index, kElementStream);
  uint32_t row0 = 0;
  if (uses_row_word(family)) row0 = philox_block(seed, tensor, row_length ? index / row_length : 0, kRowStream)[0];
  return family_value_from_bits<Real>(family, params, r[0], r[1], r[2], row0);
}

KBV_HD inline float generate_element(Family family, FamilyParams params, uint64_t seed,
                                     uint32_t tensor, uint64_t index, uint64_t row_length,
                                     double scale) {
  return static_cast<float>(family_value(family, params, seed, tensor, index, row_length) * scale);
}

}  // namespace kbv::inputs
