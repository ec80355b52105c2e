// kernels/elementwise.cu — broadcasting binary ops (add, mul): one kernel per op application,
// float4 when aligned.
#include <algorithm>
#include <stdexcept>

#include "measure/kernels/device_math.cuh"
#include "measure/kernels/kernels.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::kernels {
namespace {

using device::aligned16;

constexpr int kThreads = 256;
constexpr int kElementsPerVector = 4;

int64_t blocks_for(int64_t work, int64_t per_block) { return (work + per_block - 1) / per_block; }

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

void launch_binary(BinaryKind kind, const BroadcastGeometry& geometry, const float* a,
                   const float* b, float* y, cudaStream_t stream) {
  switch (kind) {
    case BinaryKind::add: return binary(AddOp{}, geometry, a, b, y, stream);
    case BinaryKind::mul: return binary(MulOp{}, geometry, a, b, y, stream);
  }
  throw std::invalid_argument("launch_binary: unknown kind");
}

}  // namespace kbv::cuda::kernels
