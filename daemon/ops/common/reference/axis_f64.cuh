// ops/common/reference/axis_f64.cuh — what the fp64 device references along one axis share
// (softmax, sum, mean, rmsnorm, layernorm): a tensor viewed as [outer, axis_len, inner], walked
// one thread per (outer, inner) column when inner is wide (neighbouring threads read
// neighbouring addresses: coalesced) and one block per line when it is narrow. Every reduction
// has a fixed order, so results are deterministic.
#pragma once

#include <cstdint>

#include "data/launch.cuh"

namespace kbv::ops::reference {

// From this many columns on, a warp's 32 threads read 32 consecutive addresses per step, so the
// thread-per-column layout is coalesced (one warp = 32 threads).
constexpr int64_t kColumnKernelMinInner = 32;

inline bool use_columns(int64_t inner) { return inner >= kColumnKernelMinInner; }

// Line `line` of [outer, axis_len, inner]: element j of it is at base + j * stride.
struct Line {
  int64_t base, stride;
  __device__ Line(int64_t line, int64_t axis_len, int64_t inner)
      : base((line / inner) * axis_len * inner + line % inner), stride(inner) {}
  __device__ int64_t at(int64_t j) const { return base + j * stride; }
};

// Sum (max) of one value per thread, returned to every thread of the block.
inline __device__ double block_sum(double value) {
  __shared__ double scratch[32];
  __shared__ double slot;
  return cuda::detail::block_broadcast(
      cuda::detail::block_reduce(value, cuda::detail::SumOp{}, scratch), &slot);
}

inline __device__ double block_max(double value) {
  __shared__ double scratch[32];
  __shared__ double slot;
  return cuda::detail::block_broadcast(
      cuda::detail::block_reduce(value, cuda::detail::MaxOp{}, scratch), &slot);
}

}  // namespace kbv::ops::reference
