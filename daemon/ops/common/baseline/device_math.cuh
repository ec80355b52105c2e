// ops/common/baseline/device_math.cuh — device-side building blocks shared by the CUDA baseline
// kernels: warp and block reductions for sums, (max, sum-of-exp) pairs and Welford moments
// (whose combine rules live in online_stats.hpp, where host tests reach them).
#pragma once

#include <cuda_runtime.h>

#include <cmath>

#include "ops/common/baseline/online_stats.hpp"

namespace kbv::ops::baseline::device {

using baseline::MaxSum;
using baseline::max_sum_add;
using baseline::max_sum_combine;
using baseline::max_sum_empty;
using baseline::Moments;
using baseline::moments_combine;
using baseline::moments_empty;

__device__ __forceinline__ Moments moments_of4(float4 v) {
  return baseline::moments_of4(v.x, v.y, v.z, v.w);
}

// The four values of a float4 into one running (max, Σ exp), in order.
__device__ __forceinline__ void max_sum_add4(MaxSum& acc, float4 v) {
  max_sum_add(acc, v.x);
  max_sum_add(acc, v.y);
  max_sum_add(acc, v.z);
  max_sum_add(acc, v.w);
}

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kMaxWarpsPerBlock = 32;  // 1024 threads

__device__ __forceinline__ float warp_sum(float value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
    value += __shfl_xor_sync(kFullMask, value, offset);
  return value;
}

__device__ __forceinline__ float warp_max(float value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
    value = fmaxf(value, __shfl_xor_sync(kFullMask, value, offset));
  return value;
}

// `warp_reduce` over the block, returned to every thread: each warp's value, then warp 0 over
// those (lanes past the last warp hold `identity`). `shared` holds kMaxWarpsPerBlock values; the
// block must be a multiple of 32 threads. Ends with a barrier so `shared` can be reused.
template <class T, class WarpReduce>
__device__ __forceinline__ T block_all_reduce(T value, T identity, WarpReduce warp_reduce, T* shared) {
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int warps = blockDim.x / kWarpSize;
  value = warp_reduce(value);
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < warps ? shared[lane] : identity;
    value = warp_reduce(value);
    if (lane == 0) shared[0] = value;
  }
  __syncthreads();
  value = shared[0];
  __syncthreads();
  return value;
}

__device__ __forceinline__ float block_sum(float value, float* shared) {
  return block_all_reduce(value, 0.f, [](float v) { return warp_sum(v); }, shared);
}

// fmaxf: a NaN is passed over (a sum of exp that reads it still turns NaN).
__device__ __forceinline__ float block_max(float value, float* shared) {
  return block_all_reduce(value, -INFINITY, [](float v) { return warp_max(v); }, shared);
}

__device__ __forceinline__ MaxSum warp_max_sum(MaxSum value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    MaxSum other{__shfl_xor_sync(kFullMask, value.max, offset),
                 __shfl_xor_sync(kFullMask, value.sum, offset)};
    value = max_sum_combine(value, other);
  }
  return value;
}

// `shared` holds kMaxWarpsPerBlock MaxSums.
__device__ __forceinline__ MaxSum block_max_sum(MaxSum value, MaxSum* shared) {
  return block_all_reduce(value, max_sum_empty(), [](MaxSum v) { return warp_max_sum(v); }, shared);
}

__device__ __forceinline__ Moments warp_moments(Moments value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    Moments other{__shfl_xor_sync(kFullMask, value.count, offset),
                  __shfl_xor_sync(kFullMask, value.mean, offset),
                  __shfl_xor_sync(kFullMask, value.m2, offset)};
    value = moments_combine(value, other);
  }
  return value;
}

// `shared` holds kMaxWarpsPerBlock Moments.
__device__ __forceinline__ Moments block_moments(Moments value, Moments* shared) {
  return block_all_reduce(value, moments_empty(), [](Moments v) { return warp_moments(v); }, shared);
}

__host__ __device__ __forceinline__ bool aligned16(const void* pointer) {
  return (reinterpret_cast<unsigned long long>(pointer) & 15ull) == 0;
}

}  // namespace kbv::ops::baseline::device
