// ops/common/baseline/elementwise_f32.cuh — the CUDA fp32 baseline kernels of elementwise ops
// (one kernel per op application, as PyTorch's vectorized_elementwise_kernel): a functor's
// operator() applied with float4 loads and stores when the pointers are 16-byte aligned, else
// a grid-stride scalar loop computing the same values.
#pragma once

#include <algorithm>
#include <cstdint>

#include "measure/kernels/device_math.cuh"
#include "common/cuda_error.hpp"

namespace kbv::ops::baseline {

constexpr int kElementwiseThreads = 256;
// float4 loads each thread issues before it computes: memory-level parallelism, as PyTorch's
// vectorized_elementwise_kernel (4 elements × vector width per thread).
constexpr int kVectorsPerThread = 2;
constexpr int kElementsPerVector = 4;
// Grid cap of the scalar path, whose grid-stride loop covers the rest.
constexpr int64_t kMaxScalarBlocks = 65535;

inline int64_t blocks_for(int64_t work, int64_t per_block) { return (work + per_block - 1) / per_block; }

template <class F>
__device__ __forceinline__ float4 apply4(F f, float4 v) {
  return make_float4(f(v.x), f(v.y), f(v.z), f(v.w));
}

// Vector part plus the last count % 4 elements (done by the first threads of block 0).
template <class F>
__global__ void unary_vector_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                                    int64_t vectors, int tail, F f) {
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x * kVectorsPerThread +
                        threadIdx.x;
  float4 values[kVectorsPerThread];
#pragma unroll
  for (int k = 0; k < kVectorsPerThread; ++k) {
    const int64_t i = first + static_cast<int64_t>(k) * blockDim.x;
    values[k] = i < vectors ? x[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  }
#pragma unroll
  for (int k = 0; k < kVectorsPerThread; ++k) {
    const int64_t i = first + static_cast<int64_t>(k) * blockDim.x;
    if (i < vectors) y[i] = apply4(f, values[k]);
  }
  if (blockIdx.x == 0 && static_cast<int>(threadIdx.x) < tail) {
    const float* x_tail = reinterpret_cast<const float*>(x + vectors);
    float* y_tail = reinterpret_cast<float*>(y + vectors);
    y_tail[threadIdx.x] = f(x_tail[threadIdx.x]);
  }
}

template <class F>
__global__ void unary_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                    int64_t count, F f) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    y[i] = f(x[i]);
}

// y[i] = f(x[i]) for i < count.
template <class F>
void launch_unary(F f, const float* x, float* y, int64_t count, cudaStream_t stream) {
  if (count <= 0) return;
  using cuda::kernels::device::aligned16;
  if (aligned16(x) && aligned16(y)) {
    const int64_t vectors = count / kElementsPerVector;
    const int tail = static_cast<int>(count % kElementsPerVector);
    const int64_t blocks = std::max<int64_t>(
        1, blocks_for(vectors, int64_t{kElementwiseThreads} * kVectorsPerThread));
    unary_vector_kernel<<<static_cast<unsigned>(blocks), kElementwiseThreads, 0, stream>>>(
        reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y), vectors, tail, f);
  } else {
    const int64_t blocks = std::min(blocks_for(count, kElementwiseThreads), kMaxScalarBlocks);
    unary_scalar_kernel<<<static_cast<unsigned>(blocks), kElementwiseThreads, 0, stream>>>(
        x, y, count, f);
  }
  cuda::check_launch("kbv unary elementwise kernel");
}

}  // namespace kbv::ops::baseline
