// inputs/tensor_axes.hpp — the geometry of one input tensor as the structured families see it:
// every axis's extent and inner stride (row-major), and which axis leads the structure.
//
// An element's position along axis a is (index / inner[a]) % extent[a]; the structured
// families (families.hpp) give each position along each axis its own keyed words (channel
// offsets and scales, outlier channels, trends). `lead` is the axis whose structure is
// strongest; the others carry a weaker share of it, so that a reduction split along any axis
// sees blocks with different statistics (docs/threat-model.md, "Input families").
#pragma once

#include <cstddef>
#include <cstdint>

#include "inputs/philox.hpp"

namespace kbv::inputs {

constexpr uint32_t kMaxAxes = 8;  // a problem spec's inputs have at most 8 dims (docs/problem-spec.md)

struct TensorAxes {
  uint32_t rank = 0;
  uint32_t lead = 0;                 // == rank when no axis is longer than 1
  uint64_t extent[kMaxAxes] = {};
  uint64_t inner[kMaxAxes] = {};     // elements between neighbours along the axis
  uint32_t axis_word[kMaxAxes] = {}; // one keyed word per axis (the trend's frequency and phase)
};

// The geometry of a row-major tensor of `rank` dims (lead and words left for structured_axes()).
// A scalar (rank 0) has no axis; more than kMaxAxes dims keep the innermost kMaxAxes, the outer
// ones folded into the first.
inline TensorAxes axes_of_shape(const int64_t* dims, size_t rank) {
  TensorAxes axes;
  const size_t kept = rank < kMaxAxes ? rank : kMaxAxes;
  const size_t folded = rank - kept;
  axes.rank = static_cast<uint32_t>(kept);
  uint64_t inner = 1;
  for (size_t a = kept; a-- > 0;) {
    uint64_t extent = static_cast<uint64_t>(dims[folded + a] > 0 ? dims[folded + a] : 1);
    if (a == 0)
      for (size_t f = 0; f < folded; ++f) extent *= static_cast<uint64_t>(dims[f] > 0 ? dims[f] : 1);
    axes.extent[a] = extent;
    axes.inner[a] = inner;
    inner *= extent;
  }
  axes.lead = axes.rank;
  return axes;
}

// The innermost extent: the row length per_row_scale scales by (1 for a scalar).
KBV_HD inline uint64_t row_length(const TensorAxes& axes) { return axes.rank ? axes.extent[axes.rank - 1] : 1; }

// The innermost axis longer than 1, or axes.rank when none is: the axis along which consecutive
// elements differ (its inner stride is 1, or the axes after it all have extent 1).
KBV_HD inline uint32_t innermost_long_axis(const TensorAxes& axes) {
  for (uint32_t a = axes.rank; a-- > 0;)
    if (axes.extent[a] > 1) return a;
  return axes.rank;
}

// Position of element `index` along `axis`; 32-bit arithmetic where everything fits, since a
// 64-bit division costs the GPU several times more.
KBV_HD inline uint64_t axis_position(uint64_t index, const TensorAxes& axes, uint32_t axis) {
  const uint64_t inner = axes.inner[axis], extent = axes.extent[axis];
  if (((index | inner | extent) >> 32) == 0)
    return static_cast<uint32_t>(index) / static_cast<uint32_t>(inner) % static_cast<uint32_t>(extent);
  return index / inner % extent;
}

// The geometry with its keyed lead axis (chosen among the axes longer than 1) and axis words,
// from a family's structure seed and the tensor's index: the key decides which axis of which
// input carries the strongest structure, and over epochs every axis of every input does.
KBV_HD inline TensorAxes structured_axes(TensorAxes axes, uint64_t structure, uint32_t tensor) {
  uint32_t structured = 0;
  for (uint32_t a = 0; a < axes.rank; ++a) {
    axes.axis_word[a] = philox_block(structure, tensor, a, kAxisWordStream)[0];
    structured += axes.extent[a] > 1 ? 1u : 0u;
  }
  axes.lead = axes.rank;
  if (structured == 0) return axes;
  uint32_t pick = philox_block(structure, tensor, 0, kLeadAxisStream)[0] % structured;
  for (uint32_t a = 0; a < axes.rank; ++a) {
    if (axes.extent[a] <= 1) continue;
    if (pick-- == 0) {
      axes.lead = a;
      break;
    }
  }
  return axes;
}

}  // namespace kbv::inputs
