// inputs/discrete_families.hpp — what every input family draws for an int64 input (class indices
// in [low, high)) and a bool input (a mask), element by element from Philox, on the host and the
// CUDA device alike.
//
// A problem's inputs all come from one family draw: its float32 inputs take the family's values
// (families.hpp), its int64 and bool inputs the family's discrete draw below, so an epoch's walk
// over the classes (family_classes.hpp) tests both kinds of input at once, with the same keyed
// parameters, structure and seeds. Each family's discrete draw is chosen to test what its class is
// there for where that has a meaning for indices or masks; where it has none (a sign, a
// magnitude), the float32 inputs carry the class and the discrete draw is the public one.
//
//   family           int64 in [low, high), n = high − low          bool
//   uniform01        uniform (torch.randint)                       Bernoulli(½) (randint(0, 2).bool())
//   negated          uniform                                       dense: P(true) ∈ [0.9, 0.99]
//   normal           uniform                                       Bernoulli(½)
//   sparse           `low` with P = a ∈ [0.5, 0.95], else uniform  sparse: P(true) = 1 − a
//   shifted          a keyed window of ⌈n/16⌉ classes              P(true) ∈ [0.6, 0.95]
//   heavy_tailed     skewed: n·u₁⋯u_m, m = 3 or 4 (60–80 % of      P(true) ∈ [0.05, 0.4]
//                    draws in a tenth of the range), at a keyed end
//   scaled3          uniform                                       Bernoulli(½)
//   per_row_scale    a keyed window of ⌈n/16⌉ classes per row      one density per row, uniform in [0, 1)
//   large,           the range's two ends, low and high − 1        Bernoulli(½)
//   wide_range
//   tiny, scaled001  few classes: k ∈ [1, 4] from a first one the   Bernoulli(½)
//                    trial draws (k = 1: every element one class)
//   rare_signs,      one majority class, a keyed share a of        rare_signs: all true but a share a;
//   rare_spikes      elements uniform (a sampler sees one class)   rare_spikes: all false but a share a
//   channel_affine   along the lead axis, runs of 2^s positions    density per position along every axis,
//                    (s ∈ [0, 6] keyed) share one random class:    ½ + 0.45·m (m = channel_mean())
//                    all-one-class rows of a 2-D input
//   outliers         as channel_affine; the lead axis' outlier     lead-axis outlier channels all true or
//                    runs (a keyed share b) uniform per element    all false, the others Bernoulli(½)
//   trend            classes sorted along the lead axis: position  length masks: along the lead axis, true
//                    p of P draws from a window (≥ 2) above n·p/P  below a random length per line (a
//                                                                  padding mask), keyed prefix or suffix
// The lead axis, run lengths, outlier channels and directions are the epoch's structure
// (params.structure, the axis words); classes, lengths and coin flips are fresh every trial and
// timing sample (the seed).
//
// Integer arithmetic throughout, except comparisons with unit reals (exact) and the structured
// masks' axis terms (families.hpp's double-precision formulas): host and device agree bit for bit.
#pragma once

#include <cstdint>

#include "inputs/families.hpp"

namespace kbv::inputs {

// The discrete draws' own streams (no Philox block serves two purposes, philox.hpp).
constexpr uint32_t kDiscreteStream = 0x6b627604u;      // one block per element
constexpr uint32_t kDiscreteRowStream = 0x6b627605u;   // per_row_scale: one block per row
constexpr uint32_t kDiscreteLineStream = 0x6b627606u;  // trend masks: one block per line of the lead axis
constexpr uint32_t kDiscreteRunStream = 0x6b627607u;   // structured classes: one block per run of the lead axis

// A uniform integer in [0, n) from one 32-bit word (multiply-shift; bias below n/2^32, ≤ 2^-7
// for the loader's largest n of 2^25).
KBV_HD inline uint64_t uniform_below(uint32_t word, uint64_t n) { return (static_cast<uint64_t>(word) * n) >> 32; }

// The lead axis' run length exponent: 0..6 (runs of 1..64 positions), from the axis' keyed word.
KBV_HD inline uint32_t run_shift(const TensorAxes& axes) { return (axes.axis_word[axes.lead] >> 8) % 7u; }

// ⌈n/16⌉ classes: a window far narrower than the range, never empty.
KBV_HD inline uint64_t window_width(uint64_t n) { return (n + 15) / 16; }

// Value of element `index` of an int64 input whose values lie in [low, high) (high > low), for a
// family draw (params.discrete keys the majority class, the window, the skew's end; `axes` as
// structured_axes() returns them).
KBV_HD inline int64_t integer_value(Family family, const FamilyParams& params, uint64_t seed, uint32_t tensor, uint64_t index,
                                    const TensorAxes& axes, int64_t low, int64_t high) {
  const uint64_t n = static_cast<uint64_t>(high - low);
  const auto r = philox_block(seed, tensor, index, kDiscreteStream);
  const uint32_t keyed = static_cast<uint32_t>(params.discrete);
  const auto at = [low](uint64_t k) { return low + static_cast<int64_t>(k); };
  switch (family) {
    case Family::sparse:
      return unit_closed_open(r[1]) < params.a ? low : at(uniform_below(r[0], n));
    case Family::shifted:
      return at((uniform_below(keyed, n) + uniform_below(r[0], window_width(n))) % n);
    case Family::per_row_scale: {
      const uint32_t row = philox_block(seed, tensor, index / row_length(axes), kDiscreteRowStream)[0];
      return at((uniform_below(row, n) + uniform_below(r[0], window_width(n))) % n);
    }
    case Family::heavy_tailed: {
      // The product of m units has density ∝ (−log v)^(m−1): 60 % (m = 3) or 80 % (m = 4) of
      // the draws in the tenth of the range at the keyed end.
      double v = unit_closed_open(r[0]) * unit_closed_open(r[1]) * unit_closed_open(r[2]);
      if (params.a >= 2.5) v *= unit_closed_open(r[3]);
      const uint64_t k = static_cast<uint64_t>(v * static_cast<double>(n));
      return (keyed & 1u) ? at(n - 1 - (k < n ? k : n - 1)) : at(k < n ? k : n - 1);
    }
    case Family::large:
    case Family::wide_range: return (r[0] & 1u) ? high - 1 : low;
    case Family::tiny:
    case Family::scaled001: {
      // k keyed classes from a first one the trial draws (k = 1: every element that one class).
      const uint64_t classes = 1 + keyed % 4u;
      const uint64_t first = uniform_below(philox_block(seed, tensor, 0, kDiscreteRunStream)[1], n);
      return at((first + uniform_below(r[0], classes < n ? classes : n)) % n);
    }
    case Family::rare_signs:
    case Family::rare_spikes: {
      const uint64_t majority = uniform_below(philox_block(seed, tensor, 0, kDiscreteRunStream)[2], n);
      return unit_closed_open(r[1]) < params.a ? at(uniform_below(r[0], n)) : at(majority);
    }
    case Family::channel_affine:
    case Family::outliers:
    case Family::trend: {
      if (axes.lead >= axes.rank) return at(uniform_below(r[0], n));  // no axis longer than 1
      const uint64_t position = axis_position(index, axes, axes.lead);
      if (family == Family::trend) {
        // Position p of P starts at class ⌊n·p/P⌋ and draws within a window above it: sorted along the axis.
        const uint64_t window = window_width(n) > 2 ? window_width(n) : 2;
        const uint64_t k = position * n / axes.extent[axes.lead] + uniform_below(r[0], window);
        const uint64_t sorted = k < n ? k : n - 1;
        return (axes.axis_word[axes.lead] >> 31) ? at(sorted) : at(n - 1 - sorted);
      }
      const uint64_t run = position >> run_shift(axes);
      // Which runs are outliers is the epoch's structure; every run's class is the trial's.
      if (family == Family::outliers && unit_closed_open(philox_block(params.structure, tensor, run, kGroupStream + axes.lead)[2]) < params.b)
        return at(uniform_below(r[0], n));
      return at(uniform_below(philox_block(seed, tensor, run, kDiscreteRunStream)[0], n));
    }
    default: return at(uniform_below(r[0], n));  // uniform01 (torch.randint), negated, normal, scaled3
  }
}

// Value of element `index` of a bool input (0 or 1), for a family draw.
KBV_HD inline uint8_t mask_value(Family family, const FamilyParams& params, uint64_t seed, uint32_t tensor, uint64_t index,
                                 const TensorAxes& axes) {
  const auto r = philox_block(seed, tensor, index, kDiscreteStream);
  const double u = unit_closed_open(r[0]);
  const double keyed = unit_closed_open(static_cast<uint32_t>(params.discrete));
  double p_true = 0.5;
  switch (family) {
    case Family::negated: p_true = 0.9 + 0.09 * keyed; break;
    case Family::sparse: p_true = 1.0 - params.a; break;
    case Family::shifted: p_true = 0.6 + 0.35 * keyed; break;
    case Family::heavy_tailed: p_true = 0.05 + 0.35 * keyed; break;
    case Family::per_row_scale:
      p_true = unit_closed_open(philox_block(seed, tensor, index / row_length(axes), kDiscreteRowStream)[0]);
      break;
    case Family::rare_signs: p_true = 1.0 - params.a; break;
    case Family::rare_spikes: p_true = params.a; break;
    case Family::channel_affine: {
      const AxisTerms<double> terms = axis_terms<double>(family, params, tensor, index, axes);
      p_true = 0.5 + 0.45 * channel_mean(terms);
      break;
    }
    case Family::outliers: {
      const AxisTerms<double> terms = axis_terms<double>(family, params, tensor, index, axes);
      if (terms.outlier) return (axes.axis_word[axes.lead] >> 30) & 1u;
      break;
    }
    case Family::trend: {
      if (axes.lead >= axes.rank) break;
      // The line: the element's index with the lead axis taken out; its keyed length along it.
      const uint64_t inner = axes.inner[axes.lead], extent = axes.extent[axes.lead];
      const uint64_t position = axis_position(index, axes, axes.lead);
      const uint64_t line = index / (inner * extent) * inner + index % inner;
      const uint32_t word = philox_block(seed, tensor, line, kDiscreteLineStream)[0];
      const uint64_t length = uniform_below(word, extent + 1);
      const uint64_t along = (axes.axis_word[axes.lead] >> 31) ? position : extent - 1 - position;
      return along < length ? 1 : 0;
    }
    default: break;  // uniform01, normal, scaled3, large, wide_range, tiny, scaled001: Bernoulli(½)
  }
  return u < p_true ? 1 : 0;
}

}  // namespace kbv::inputs
