// reductions.cuh — warp-shuffle and block-wide all-reductions over small value structs, for
// the honest softmax, cross_entropy, layernorm and rmsnorm candidates.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstring>

namespace cuda_candidate {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

// __shfl_xor_sync for any struct made of 4-byte members.
template <class T>
__device__ T shuffle_xor(T value, int lane_mask) {
  static_assert(sizeof(T) % 4 == 0, "shuffle_xor needs a struct of 4-byte members");
  constexpr int kWords = sizeof(T) / 4;
  unsigned words[kWords];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < kWords; ++i) words[i] = __shfl_xor_sync(kFullMask, words[i], lane_mask);
  memcpy(&value, words, sizeof(T));
  return value;
}

// Butterfly reduction: every lane ends with the combination of all 32 lanes.
template <class T, class Combine>
__device__ T warp_allreduce(T value, Combine combine) {
#pragma unroll
  for (int mask = kWarpSize / 2; mask > 0; mask /= 2) value = combine(value, shuffle_xor(value, mask));
  return value;
}

// Every thread of the block gets the combination of all threads' values. Must be reached by
// all threads of the block; may be called repeatedly in one kernel.
template <class T, class Combine>
__device__ T block_allreduce(T value, Combine combine, T identity) {
  __shared__ T per_warp[kWarpSize];
  __shared__ T total;
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  const int warps = (blockDim.x + kWarpSize - 1) / kWarpSize;
  value = warp_allreduce(value, combine);
  if (lane == 0) per_warp[warp] = value;
  __syncthreads();
  if (warp == 0) {
    T partial = lane < warps ? per_warp[lane] : identity;
    partial = warp_allreduce(partial, combine);
    if (lane == 0) total = partial;
  }
  __syncthreads();
  return total;
}

// A running (max, Σ exp(x − max)) pair: softmax's and cross-entropy's online normaliser.
struct MaxSum {
  float max;
  float sum;  // Σ exp(x − max)
};

struct CombineMaxSum {
  __device__ MaxSum operator()(MaxSum a, MaxSum b) const {
    const float max = fmaxf(a.max, b.max);
    if (max == -INFINITY) return {max, 0.0f};
    return {max, a.sum * expf(a.max - max) + b.sum * expf(b.max - max)};
  }
};

__device__ inline void absorb4(MaxSum& state, float4 v) {
  const float local = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
  const float max = fmaxf(state.max, local);
  if (max == -INFINITY) return;
  state.sum = state.sum * expf(state.max - max) + expf(v.x - max) + expf(v.y - max) + expf(v.z - max) +
              expf(v.w - max);
  state.max = max;
}

__device__ inline void absorb1(MaxSum& state, float v) {
  const float max = fmaxf(state.max, v);
  if (max == -INFINITY) return;
  state.sum = state.sum * expf(state.max - max) + expf(v - max);
  state.max = max;
}

// Count, mean and sum of squared deviations of a set of values; combined with Chan et al.'s
// parallel form of Welford's update, which stays accurate when the mean is large.
struct Moments {
  float count;
  float mean;
  float m2;
};

struct CombineMoments {
  __device__ Moments operator()(Moments a, Moments b) const {
    const float count = a.count + b.count;
    if (count == 0.0f) return a;
    const float delta = b.mean - a.mean;
    const float weight_b = b.count / count;
    return {count, a.mean + delta * weight_b, a.m2 + b.m2 + delta * delta * a.count * weight_b};
  }
};

// Moments of values fed one at a time: sums of deviations from the first value (a cheap shift
// that removes most of the cancellation), turned into Moments at the end.
struct ShiftedSums {
  float shift = 0.0f, sum = 0.0f, squares = 0.0f, count = 0.0f;
  __device__ void add(float v) {
    if (count == 0.0f) shift = v;
    const float d = v - shift;
    sum += d;
    squares += d * d;
    count += 1.0f;
  }
  __device__ Moments moments() const {
    if (count == 0.0f) return {0.0f, 0.0f, 0.0f};
    const float mean_d = sum / count;
    return {count, shift + mean_d, fmaxf(squares - sum * mean_d, 0.0f)};
  }
};

}  // namespace cuda_candidate
