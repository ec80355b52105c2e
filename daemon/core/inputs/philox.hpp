// inputs/philox.hpp — the counter-based Philox streams every input value comes from, and the
// conversions of its 32-bit words to unit reals, shared by the host and the CUDA device.
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

// Streams: the fourth counter word, so that no two purposes ever share a Philox block.
constexpr uint32_t kElementStream = 0x6b627601u;  // "kbv\x01": one block per element
constexpr uint32_t kRowStream = 0x6b627602u;      // per_row_scale: one block per row
// The CUDA timing draw's own streams (cuda/data/timing_inputs.cu): one block per four
// elements, a second block per four where a family needs a third word, and the per-row words.
// (0x6b627611, one block per pair of elements, is retired.)
constexpr uint32_t kTimingQuadStream = 0x6b627614u;
constexpr uint32_t kTimingThirdWordStream = 0x6b627612u;
constexpr uint32_t kTimingRowStream = 0x6b627613u;
// The structured families' per-tensor words (inputs/tensor_axes.hpp): keyed by the family's
// structure seed, not by the trial seed, so every trial and timing sample of an epoch sees the
// same channels. kGroupStream + axis: one block per position along that axis.
constexpr uint32_t kLeadAxisStream = 0x6b627621u;
constexpr uint32_t kAxisWordStream = 0x6b627622u;
constexpr uint32_t kGroupStream = 0x6b627630u;  // .. 0x6b627637u, one per axis

// Rounds of the timing draw's Philox blocks (kTiming*Stream): 8, not Random123's default 10.
// Random123's philox.h: "The authors know of no statistical flaws with ROUNDS=8 or more for
// Philox4x32" (7 drew suspicious p-values in very long SimpPoker runs). The timing values need the
// families' distributions (tests/cuda/data/device_inputs_test.cpp measures them), not the exact
// draw's bits, and unpredictability comes from each sample's seed, a keyed hash of the sample
// (eval/evaluation_timing.cpp), not from Philox's rounds. Two rounds fewer are a fifth less of
// each block's Philox arithmetic.
constexpr unsigned kTimingPhiloxRounds = 8;

template <unsigned Rounds = 10>
KBV_HD inline r123::Philox4x32::ctr_type philox_block(uint64_t seed, uint32_t tensor, uint64_t counter, uint32_t stream) {
  r123::Philox4x32_R<Rounds> generator;
  r123::Philox4x32::ctr_type ctr = {{static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32), tensor, stream}};
  r123::Philox4x32::key_type key = {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  return generator(ctr, key);
}
// The timing draw's blocks (cuda/data/timing_inputs.cu).
KBV_HD inline r123::Philox4x32::ctr_type timing_philox_block(uint64_t seed, uint32_t tensor, uint64_t counter, uint32_t stream) {
  return philox_block<kTimingPhiloxRounds>(seed, tensor, counter, stream);
}

// 24 random bits to [0,1) and (0,1): exactly representable in float. `Real` is double for
// every input that is checked against the fp64 reference (host and device bit for bit); the
// CUDA timing phase draws its per-sample inputs with Real = float from its own streams (same
// families, same parameters, fresh values; cuda/data/timing_inputs.cu).
template <class Real = double>
KBV_HD inline Real unit_closed_open(uint32_t bits) { return static_cast<Real>(bits >> 8) * static_cast<Real>(1.0 / 16777216.0); }
template <class Real = double>
KBV_HD inline Real unit_open(uint32_t bits) { return (static_cast<Real>(bits >> 8) + static_cast<Real>(0.5)) * static_cast<Real>(1.0 / 16777216.0); }
// [-1, 1): the symmetric unit a keyed offset is scaled from.
template <class Real = double>
KBV_HD inline Real unit_symmetric(uint32_t bits) { return static_cast<Real>(2) * unit_closed_open<Real>(bits) - static_cast<Real>(1); }

template <class Real = double>
KBV_HD inline Real standard_normal(uint32_t bits0, uint32_t bits1) {
  const Real kTwoPi = static_cast<Real>(6.283185307179586476925286766559);
  return sqrt(static_cast<Real>(-2) * log(unit_open<Real>(bits0))) * cos(kTwoPi * unit_closed_open<Real>(bits1));
}

}  // namespace kbv::inputs
