// kernels/layernorm.cu — layer normalisation of rows with Welford moments in fp32:
// y = (x - mean) * rsqrt(var + eps) * weight + bias, var biased (as torch.nn.LayerNorm).
// Enough rows: one fused kernel, one block per row. Few long rows (16 rows of 4M in
// KernelBench's LayerNorm): a moments kernel over row chunks, then a kernel that combines the
// row's partial moments and normalises its chunk — PyTorch likewise runs RowwiseMoments and
// LayerNormForward as two kernels on its non-vectorised path.
#include <algorithm>

#include "ops/common/baseline/device_math.cuh"
#include "measure/kernels/kernels.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::kernels {
namespace {

using namespace ops::baseline::device;

constexpr int kThreads = 256;
constexpr unsigned kMaxGridY = 65535;

// Moments of x[begin, end) with this block's threads.
template <bool kVector>
__device__ Moments chunk_moments(const float* __restrict__ x, int64_t begin, int64_t end) {
  Moments acc = moments_empty();
  if (kVector) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
#pragma unroll 4
    for (int64_t i = begin / 4 + threadIdx.x; i < end / 4; i += blockDim.x)
      acc = moments_combine(acc, moments_of4(x4[i]));
  } else {
    for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x)
      acc = moments_combine(acc, Moments{1.f, x[i], 0.f});
  }
  return acc;
}

template <bool kVector>
__device__ void normalize_chunk(const float* __restrict__ x, const float* __restrict__ weight,
                                const float* __restrict__ bias, float* __restrict__ y,
                                int64_t begin, int64_t end, float mean, float rstd) {
  if (kVector) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    const float4* w4 = reinterpret_cast<const float4*>(weight);
    const float4* b4 = reinterpret_cast<const float4*>(bias);
    for (int64_t i = begin / 4 + threadIdx.x; i < end / 4; i += blockDim.x) {
      const float4 v = x4[i];
      float4 r = make_float4((v.x - mean) * rstd, (v.y - mean) * rstd, (v.z - mean) * rstd,
                             (v.w - mean) * rstd);
      if (weight) {
        const float4 w = w4[i];
        r = make_float4(r.x * w.x, r.y * w.y, r.z * w.z, r.w * w.w);
      }
      if (bias) {
        const float4 b = b4[i];
        r = make_float4(r.x + b.x, r.y + b.y, r.z + b.z, r.w + b.w);
      }
      y4[i] = r;
    }
  } else {
    for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
      float r = (x[i] - mean) * rstd;
      if (weight) r *= weight[i];
      if (bias) r += bias[i];
      y[i] = r;
    }
  }
}

template <bool kVector>
__global__ void layernorm_fused_kernel(const float* __restrict__ x,
                                       const float* __restrict__ weight,
                                       const float* __restrict__ bias, float* __restrict__ y,
                                       int64_t rows, int64_t cols, float eps) {
  __shared__ Moments shared[kMaxWarpsPerBlock];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * cols;
    const Moments m = block_moments(chunk_moments<kVector>(xr, 0, cols), shared);
    const float rstd = rsqrtf(m.m2 / static_cast<float>(cols) + eps);
    normalize_chunk<kVector>(xr, weight, bias, y + row * cols, 0, cols, m.mean, rstd);
  }
}

// Grid (chunks, rows): partial[row][chunk] = moments of that chunk.
template <bool kVector>
__global__ void layernorm_moments_kernel(const float* __restrict__ x, Moments* partial,
                                         int64_t rows, int64_t cols, int64_t chunk_cols) {
  __shared__ Moments shared[kMaxWarpsPerBlock];
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * chunk_cols;
  const int64_t end = begin + chunk_cols < cols ? begin + chunk_cols : cols;
  for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const Moments m = block_moments(chunk_moments<kVector>(x + row * cols, begin, end), shared);
    if (threadIdx.x == 0) partial[row * gridDim.x + blockIdx.x] = m;
  }
}

// Grid (chunks, rows): combine the row's partials, normalise this chunk.
template <bool kVector>
__global__ void layernorm_apply_kernel(const float* __restrict__ x,
                                       const float* __restrict__ weight,
                                       const float* __restrict__ bias, float* __restrict__ y,
                                       const Moments* partial, int64_t rows, int64_t cols,
                                       int64_t chunk_cols, float eps) {
  __shared__ Moments shared[kMaxWarpsPerBlock];
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * chunk_cols;
  const int64_t end = begin + chunk_cols < cols ? begin + chunk_cols : cols;
  for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    Moments acc = moments_empty();
    for (unsigned c = threadIdx.x; c < gridDim.x; c += blockDim.x)
      acc = moments_combine(acc, partial[row * gridDim.x + c]);
    const Moments m = block_moments(acc, shared);
    const float rstd = rsqrtf(m.m2 / static_cast<float>(cols) + eps);
    normalize_chunk<kVector>(x + row * cols, weight, bias, y + row * cols, begin, end, m.mean,
                             rstd);
  }
}

bool aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

}  // namespace

void launch_layernorm(const LayerNormGeometry& g, float eps, const float* x, const float* weight,
                      const float* bias, float* y, void* scratch, cudaStream_t stream) {
  if (g.rows * g.cols == 0) return;
  const bool vector = g.cols % 4 == 0 && aligned(x) && aligned(y) &&
                      (weight == nullptr || aligned(weight)) && (bias == nullptr || aligned(bias));
  if (g.chunks <= 1) {
    constexpr int64_t kMaxBlocks = 2147483647;
    const auto blocks = static_cast<unsigned>(std::min(g.rows, kMaxBlocks));
    if (vector)
      layernorm_fused_kernel<true><<<blocks, kThreads, 0, stream>>>(x, weight, bias, y, g.rows,
                                                                    g.cols, eps);
    else
      layernorm_fused_kernel<false><<<blocks, kThreads, 0, stream>>>(x, weight, bias, y, g.rows,
                                                                     g.cols, eps);
    check_launch("kbv layernorm kernel");
    return;
  }
  auto* partial = static_cast<Moments*>(scratch);
  const dim3 grid(static_cast<unsigned>(g.chunks),
                  static_cast<unsigned>(std::min<int64_t>(g.rows, kMaxGridY)));
  if (vector)
    layernorm_moments_kernel<true><<<grid, kThreads, 0, stream>>>(x, partial, g.rows, g.cols,
                                                                  g.chunk_cols);
  else
    layernorm_moments_kernel<false><<<grid, kThreads, 0, stream>>>(x, partial, g.rows, g.cols,
                                                                   g.chunk_cols);
  check_launch("kbv layernorm moments kernel");
  if (vector)
    layernorm_apply_kernel<true><<<grid, kThreads, 0, stream>>>(x, weight, bias, y, partial,
                                                                g.rows, g.cols, g.chunk_cols, eps);
  else
    layernorm_apply_kernel<false><<<grid, kThreads, 0, stream>>>(x, weight, bias, y, partial,
                                                                 g.rows, g.cols, g.chunk_cols, eps);
  check_launch("kbv layernorm apply kernel");
}

}  // namespace kbv::cuda::kernels
