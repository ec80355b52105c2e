// kernels/elementwise.cu — unary ops (relu, gelu, leaky_relu, sigmoid, tanh, scale) and
// broadcasting binary ops (add, mul): one kernel per op application, float4 when aligned.
#include <algorithm>
#include <stdexcept>

#include "measure/kernels/device_math.cuh"
#include "measure/kernels/kernels.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::kernels {
namespace {

using device::aligned16;

constexpr int kThreads = 256;
// float4 loads each thread issues before it computes: memory-level parallelism, as
// PyTorch's vectorized_elementwise_kernel (4 elements × vector width per thread).
constexpr int kVectorsPerThread = 2;
constexpr int kElementsPerVector = 4;

struct Relu {
  float parameter;
  // NaN < 0 is false, so NaN propagates as torch.relu does.
  __device__ float operator()(float x) const { return x < 0.f ? 0.f : x; }
};
struct Gelu {
  float parameter;
  __device__ float operator()(float x) const {
    constexpr float kInvSqrt2 = 0.70710678118654752440f;
    return 0.5f * x * (1.f + erff(x * kInvSqrt2));  // approximate='none'
  }
};
struct LeakyRelu {
  float parameter;  // negative_slope
  __device__ float operator()(float x) const { return x < 0.f ? x * parameter : x; }
};
struct Sigmoid {
  float parameter;
  __device__ float operator()(float x) const { return 1.f / (1.f + expf(-x)); }
};
struct Tanh {
  float parameter;
  __device__ float operator()(float x) const { return tanhf(x); }
};
struct Scale {
  float parameter;  // value
  __device__ float operator()(float x) const { return x * parameter; }
};

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

int64_t blocks_for(int64_t work, int64_t per_block) { return (work + per_block - 1) / per_block; }

template <class F>
void unary(F f, const float* x, float* y, int64_t count, cudaStream_t stream) {
  if (count <= 0) return;
  if (aligned16(x) && aligned16(y)) {
    const int64_t vectors = count / kElementsPerVector;
    const int tail = static_cast<int>(count % kElementsPerVector);
    const int64_t blocks =
        std::max<int64_t>(1, blocks_for(vectors, int64_t{kThreads} * kVectorsPerThread));
    unary_vector_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
        reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y), vectors, tail, f);
  } else {
    constexpr int64_t kMaxScalarBlocks = 65535;
    const int64_t blocks = std::min(blocks_for(count, kThreads), kMaxScalarBlocks);
    unary_scalar_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(x, y, count, f);
  }
  check_launch("kbv unary elementwise kernel");
}

// ---- binary with broadcasting ----

struct AddOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct MulOp {
  __device__ float operator()(float a, float b) const { return a * b; }
};

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

template <class F>
void binary(F f, const BroadcastGeometry& g, const float* a, const float* b, float* y,
            cudaStream_t stream) {
  if (g.count <= 0) return;
  const int last = g.rank - 1;
  const bool a_ok = g.stride_a[last] != 1 || aligned16(a);
  const bool b_ok = g.stride_b[last] != 1 || aligned16(b);
  if (g.dims[last] % kElementsPerVector == 0 && aligned16(y) && a_ok && b_ok) {
    const int64_t blocks = blocks_for(g.count / kElementsPerVector, kThreads);
    binary_vector_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(g, a, b, y, f);
  } else {
    constexpr int64_t kMaxScalarBlocks = 65535;
    const int64_t blocks = std::min(blocks_for(g.count, kThreads), kMaxScalarBlocks);
    binary_scalar_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(g, a, b, y, f);
  }
  check_launch("kbv binary elementwise kernel");
}

}  // namespace

void launch_unary(UnaryKind kind, float parameter, const float* x, float* y, int64_t count,
                  cudaStream_t stream) {
  switch (kind) {
    case UnaryKind::relu: return unary(Relu{parameter}, x, y, count, stream);
    case UnaryKind::gelu: return unary(Gelu{parameter}, x, y, count, stream);
    case UnaryKind::leaky_relu: return unary(LeakyRelu{parameter}, x, y, count, stream);
    case UnaryKind::sigmoid: return unary(Sigmoid{parameter}, x, y, count, stream);
    case UnaryKind::tanh: return unary(Tanh{parameter}, x, y, count, stream);
    case UnaryKind::scale: return unary(Scale{parameter}, x, y, count, stream);
  }
  throw std::invalid_argument("launch_unary: unknown kind");
}

void launch_binary(BinaryKind kind, const BroadcastGeometry& geometry, const float* a,
                   const float* b, float* y, cudaStream_t stream) {
  switch (kind) {
    case BinaryKind::add: return binary(AddOp{}, geometry, a, b, y, stream);
    case BinaryKind::mul: return binary(MulOp{}, geometry, a, b, y, stream);
  }
  throw std::invalid_argument("launch_binary: unknown kind");
}

}  // namespace kbv::cuda::kernels
