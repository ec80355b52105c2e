// ops/common/baseline/broadcast.hpp — the launch geometry of a broadcasting binary kernel in the
// CUDA baselines, and the broadcast add that other baselines reuse (conv2d's bias, as PyTorch's
// output.add_(bias)).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "ops/common/elementwise.hpp"
#include "tensor/shape.hpp"

namespace kbv::ops::baseline {

// Output dims with each operand's element strides (0 where it broadcasts), after dropping
// size-1 dims and merging dims both operands walk contiguously (TensorIterator's coalescing).
struct BroadcastGeometry {
  int rank = 0;
  int64_t dims[kMaxBroadcastRank] = {};
  int64_t stride_a[kMaxBroadcastRank] = {};
  int64_t stride_b[kMaxBroadcastRank] = {};
  int64_t count = 0;
};

// Throws std::invalid_argument when the shapes do not broadcast to `out` or the coalesced rank
// exceeds kMaxBroadcastRank.
BroadcastGeometry make_broadcast_geometry(const Shape& a, const Shape& b, const Shape& out);

// y = a + b with the broadcasting kernel every binary op's baseline runs. y may alias a
// (in-place bias add); it must not partially overlap either input.
void launch_broadcast_add(const BroadcastGeometry& geometry, const float* a, const float* b,
                          float* y, cudaStream_t stream);

}  // namespace kbv::ops::baseline
