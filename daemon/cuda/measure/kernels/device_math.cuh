// kernels/device_math.cuh — device-side building blocks shared by kbv's kernels: warp and
// block reductions for sums, (max, sum-of-exp) pairs and Welford moments.
#pragma once

#include <cuda_runtime.h>

#include <cmath>

namespace kbv::cuda::kernels::device {

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

// Running max and sum of exp(x - max) of a set of values (online softmax).
struct MaxSum {
  float max;
  float sum;
};

__device__ __forceinline__ MaxSum max_sum_empty() { return {-INFINITY, 0.f}; }

__device__ __forceinline__ void max_sum_add(MaxSum& acc, float x) {
  if (x > acc.max) {
    acc.sum = acc.sum * expf(acc.max - x) + 1.f;
    acc.max = x;
  } else if (acc.max != -INFINITY || x != x) {
    // A NaN x lands here and makes the sum NaN, as in PyTorch; -inf before any finite value
    // contributes exp(-inf) = 0 and is skipped rather than computing exp(-inf - -inf) = NaN.
    acc.sum += expf(x - acc.max);
  }
}

__device__ __forceinline__ MaxSum max_sum_combine(MaxSum a, MaxSum b) {
  const float max = fmaxf(a.max, b.max);
  if (max == -INFINITY) return {max, a.sum + b.sum};
  const float sa = a.max == -INFINITY ? 0.f : a.sum * expf(a.max - max);
  const float sb = b.max == -INFINITY ? 0.f : b.sum * expf(b.max - max);
  return {max, sa + sb};
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

// Welford moments: count, mean, sum of squared deviations (Chan et al.'s parallel combine).
struct Moments {
  float count;
  float mean;
  float m2;
};

__device__ __forceinline__ Moments moments_empty() { return {0.f, 0.f, 0.f}; }

__device__ __forceinline__ Moments moments_combine(Moments a, Moments b) {
  if (b.count == 0.f) return a;
  if (a.count == 0.f) return b;
  const float count = a.count + b.count;
  const float delta = b.mean - a.mean;
  const float b_share = b.count / count;
  return {count, a.mean + delta * b_share, a.m2 + b.m2 + delta * delta * a.count * b_share};
}

// Moments of four values, computed exactly as a group before being combined.
__device__ __forceinline__ Moments moments_of4(float4 v) {
  const float mean = (v.x + v.y + v.z + v.w) * 0.25f;
  const float dx = v.x - mean, dy = v.y - mean, dz = v.z - mean, dw = v.w - mean;
  return {4.f, mean, dx * dx + dy * dy + dz * dz + dw * dw};
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

__device__ __forceinline__ bool aligned16(const void* pointer) {
  return (reinterpret_cast<unsigned long long>(pointer) & 15ull) == 0;
}

}  // namespace kbv::cuda::kernels::device
