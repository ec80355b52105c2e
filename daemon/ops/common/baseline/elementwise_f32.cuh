// ops/common/baseline/elementwise_f32.cuh — the CUDA fp32 baseline kernels of elementwise ops
// (one kernel per op application, as PyTorch's vectorized_elementwise_kernel): a functor's
// operator() applied with float4 loads and stores when the pointers are 16-byte aligned (and,
// for two inputs, the innermost dim a multiple of 4), else a grid-stride scalar loop computing
// the same values.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/cuda_error.hpp"
#include "ops/common/baseline/device_math.cuh"
#include "ops/common/baseline/broadcast.hpp"

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
  using device::aligned16;
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

// ---- two inputs with numpy broadcasting (ops/common/baseline/broadcast.hpp) ----

// Offsets of element `index` of the output in a and b.
__device__ __forceinline__ void broadcast_offsets(const BroadcastGeometry& g, int64_t index,
                                                  int64_t& offset_a, int64_t& offset_b) {
  offset_a = 0;
  offset_b = 0;
#pragma unroll
  for (int d = kMaxBroadcastRank - 1; d > 0; --d) {
    if (d >= g.rank) continue;
    const int64_t coordinate = index % g.dims[d];
    index /= g.dims[d];
    offset_a += coordinate * g.stride_a[d];
    offset_b += coordinate * g.stride_b[d];
  }
  offset_a += index * g.stride_a[0];  // the outermost dim needs no modulo
  offset_b += index * g.stride_b[0];
}

// Four consecutive elements of one operand along the innermost dim.
__device__ __forceinline__ float4 load4(const float* p, int64_t offset, int64_t step) {
  if (step == 1 && (offset & 3) == 0) return *reinterpret_cast<const float4*>(p + offset);
  if (step == 0) {
    const float v = p[offset];
    return make_float4(v, v, v, v);
  }
  return make_float4(p[offset], p[offset + step], p[offset + 2 * step], p[offset + 3 * step]);
}

// Each thread computes 4 consecutive outputs (the innermost dim is a multiple of 4).
template <class F>
__global__ void binary_vector_kernel(BroadcastGeometry g, const float* a, const float* b,
                                     float* y, F f) {
  const int64_t groups = g.count / kElementsPerVector;
  const int64_t group = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (group >= groups) return;
  int64_t offset_a = 0, offset_b = 0;
  broadcast_offsets(g, group * kElementsPerVector, offset_a, offset_b);
  const int last = g.rank - 1;
  const float4 va = load4(a, offset_a, g.stride_a[last]);
  const float4 vb = load4(b, offset_b, g.stride_b[last]);
  reinterpret_cast<float4*>(y)[group] =
      make_float4(f(va.x, vb.x), f(va.y, vb.y), f(va.z, vb.z), f(va.w, vb.w));
}

template <class F>
__global__ void binary_scalar_kernel(BroadcastGeometry g, const float* a, const float* b,
                                     float* y, F f) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < g.count;
       i += stride) {
    int64_t offset_a = 0, offset_b = 0;
    broadcast_offsets(g, i, offset_a, offset_b);
    y[i] = f(a[offset_a], b[offset_b]);
  }
}

// y = f(a, b) broadcast as `g` says.
template <class F>
void launch_binary(F f, const BroadcastGeometry& g, const float* a, const float* b, float* y,
                   cudaStream_t stream) {
  if (g.count <= 0) return;
  using device::aligned16;
  const int last = g.rank - 1;
  const bool a_ok = g.stride_a[last] != 1 || aligned16(a);
  const bool b_ok = g.stride_b[last] != 1 || aligned16(b);
  if (g.dims[last] % kElementsPerVector == 0 && aligned16(y) && a_ok && b_ok) {
    const int64_t blocks = blocks_for(g.count / kElementsPerVector, kElementwiseThreads);
    binary_vector_kernel<<<static_cast<unsigned>(blocks), kElementwiseThreads, 0, stream>>>(
        g, a, b, y, f);
  } else {
    const int64_t blocks = std::min(blocks_for(g.count, kElementwiseThreads), kMaxScalarBlocks);
    binary_scalar_kernel<<<static_cast<unsigned>(blocks), kElementwiseThreads, 0, stream>>>(
        g, a, b, y, f);
  }
  cuda::check_launch("kbv binary elementwise kernel");
}

}  // namespace kbv::ops::baseline
