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

// Sum over the block, returned to every thread. `shared` holds kMaxWarpsPerBlock floats; the
// block must be a multiple of 32 threads. Ends with a barrier so `shared` can be reused.
__device__ __forceinline__ float block_sum(float value, float* shared) {
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int warps = blockDim.x / kWarpSize;
  value = warp_sum(value);
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < warps ? shared[lane] : 0.f;
    value = warp_sum(value);
    if (lane == 0) shared[0] = value;
  }
  __syncthreads();
  value = shared[0];
  __syncthreads();
  return value;
}

__device__ __forceinline__ float warp_max(float value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
    value = fmaxf(value, __shfl_xor_sync(kFullMask, value, offset));
  return value;
}

// Max over the block (fmaxf: a NaN is passed over; a sum of exp that reads it still turns NaN),
// returned to every thread; `shared` and the barriers as block_sum's.
__device__ __forceinline__ float block_max(float value, float* shared) {
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int warps = blockDim.x / kWarpSize;
  value = warp_max(value);
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < warps ? shared[lane] : -INFINITY;
    value = warp_max(value);
    if (lane == 0) shared[0] = value;
  }
  __syncthreads();
  value = shared[0];
  __syncthreads();
  return value;
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
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int warps = blockDim.x / kWarpSize;
  value = warp_max_sum(value);
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < warps ? shared[lane] : max_sum_empty();
    value = warp_max_sum(value);
    if (lane == 0) shared[0] = value;
  }
  __syncthreads();
  value = shared[0];
  __syncthreads();
  return value;
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
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int warps = blockDim.x / kWarpSize;
  value = warp_moments(value);
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < warps ? shared[lane] : moments_empty();
    value = warp_moments(value);
    if (lane == 0) shared[0] = value;
  }
  __syncthreads();
  value = shared[0];
  __syncthreads();
  return value;
}

__host__ __device__ __forceinline__ bool aligned16(const void* pointer) {
  return (reinterpret_cast<unsigned long long>(pointer) & 15ull) == 0;
}

}  // namespace kbv::ops::baseline::device
