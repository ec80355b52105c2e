// ops/common/baseline/axis_f32.cuh — what the CUDA fp32 baselines along one axis of
// [outer, extent, inner] share (softmax, sum, mean, rmsnorm). Rows (inner == 1) take one block
// per row with warp-shuffle reductions; columns (inner > 1) take 32 adjacent columns per block
// with the axis split over 8 thread rows, so every warp reads 128 contiguous bytes per step.
// Also the one kernel family behind sum, mean and rmsnorm (reduce_like).
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/cuda_error.hpp"
#include "ops/common/baseline/device_math.cuh"
#include "ops/op_support.hpp"

namespace kbv::ops::baseline {

using op_support::AxisSplit;

constexpr int kMaxRowThreads = 1024;
constexpr int kColumnTile = 32;   // columns per block (one warp wide)
constexpr int kColumnSlices = 8;  // thread rows sharing one column's axis
constexpr unsigned kMaxGridY = 65535;

// Threads for a row of `items` loads: a power of two in [32, 1024], about one load each.
inline int row_threads(int64_t items) {
  int threads = device::kWarpSize;
  while (threads < kMaxRowThreads && threads < items) threads *= 2;
  return threads;
}

inline unsigned row_blocks(int64_t rows) {
  constexpr int64_t kMaxBlocks = 2147483647;
  return static_cast<unsigned>(std::min(rows, kMaxBlocks));
}

inline bool vectorizable(int64_t extent, const float* x, const float* y) {
  const auto address = [](const float* p) { return reinterpret_cast<uintptr_t>(p); };
  return extent % 4 == 0 && address(x) % 16 == 0 && address(y) % 16 == 0;
}

// Block (kColumnTile, kColumnSlices); blockIdx.x picks 32 columns, blockIdx.y walks `outer`.
inline dim3 column_grid(const AxisSplit& split) {
  const int64_t tiles = (split.inner + kColumnTile - 1) / kColumnTile;
  return dim3(static_cast<unsigned>(tiles),
              static_cast<unsigned>(std::min<int64_t>(split.outer, kMaxGridY)));
}

inline const dim3 kColumnBlock(kColumnTile, kColumnSlices);

// ---- sum, mean and rmsnorm: one reduction of x (or x²) along the axis ----

// kKind: 0 sum, 1 mean, 2 rmsnorm (sum of squares, then y = x / sqrt(mean + eps)).
enum RowKind { kSum = 0, kMean = 1, kRmsNorm = 2 };

template <int kKind, bool kVector>
__global__ void reduce_row_kernel(const float* __restrict__ x, float* __restrict__ y,
                                  int64_t rows, int64_t extent, float eps) {
  __shared__ float shared[device::kMaxWarpsPerBlock];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * extent;
    float acc = 0.f;
    if (kVector) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
#pragma unroll 4
      for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
        const float4 v = x4[i];
        acc += kKind == kRmsNorm ? v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w
                                 : (v.x + v.y) + (v.z + v.w);
      }
    } else {
      for (int64_t i = threadIdx.x; i < extent; i += blockDim.x)
        acc += kKind == kRmsNorm ? xr[i] * xr[i] : xr[i];
    }
    const float total = device::block_sum(acc, shared);
    if (kKind == kSum) {
      if (threadIdx.x == 0) y[row] = total;
    } else if (kKind == kMean) {
      if (threadIdx.x == 0) y[row] = total / static_cast<float>(extent);
    } else {
      const float rms = sqrtf(total / static_cast<float>(extent) + eps);
      float* yr = y + row * extent;
      if (kVector) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        float4* y4 = reinterpret_cast<float4*>(yr);
        for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
          const float4 v = x4[i];
          y4[i] = make_float4(v.x / rms, v.y / rms, v.z / rms, v.w / rms);
        }
      } else {
        for (int64_t i = threadIdx.x; i < extent; i += blockDim.x) yr[i] = xr[i] / rms;
      }
    }
  }
}

template <int kKind>
__global__ void reduce_column_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     int64_t outer, int64_t extent, int64_t inner, float eps) {
  __shared__ float partial[kColumnSlices][kColumnTile];
  const int64_t column = static_cast<int64_t>(blockIdx.x) * kColumnTile + threadIdx.x;
  const bool active = column < inner;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    const float* xo = x + o * extent * inner + column;
    float acc = 0.f;
    if (active) {
#pragma unroll 4
      for (int64_t a = threadIdx.y; a < extent; a += kColumnSlices) {
        const float v = xo[a * inner];
        acc += kKind == kRmsNorm ? v * v : v;
      }
    }
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    float total = 0.f;
#pragma unroll
    for (int s = 0; s < kColumnSlices; ++s) total += partial[s][threadIdx.x];
    if (active) {
      if (kKind == kSum) {
        if (threadIdx.y == 0) y[o * inner + column] = total;
      } else if (kKind == kMean) {
        if (threadIdx.y == 0) y[o * inner + column] = total / static_cast<float>(extent);
      } else {
        const float rms = sqrtf(total / static_cast<float>(extent) + eps);
        float* yo = y + o * extent * inner + column;
        for (int64_t a = threadIdx.y; a < extent; a += kColumnSlices) yo[a * inner] = xo[a * inner] / rms;
      }
    }
    __syncthreads();
  }
}

// rmsnorm along a short column axis (KernelBench L1 #36: 64 features at a 1 MiB stride): each
// thread holds its column's values in registers, so x is read once, not twice as
// reduce_column_kernel does (its second read misses L2 at that size: 7.2 ms against
// torch.compile's 3.7 ms, one read and one write). A block is kCachedColumnThreads adjacent
// columns, so each warp reads 128 contiguous bytes per row, the block 1 KiB.
constexpr int kCachedColumnExtent = 64;  // registers per thread for the values; above: two reads
constexpr int kCachedColumnThreads = 256;

template <int kMaxExtent>  // a template, as every kernel defined in this header
__global__ void rmsnorm_cached_column_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t outer,
                                             int extent, int64_t inner, float eps) {
  const int64_t column = static_cast<int64_t>(blockIdx.x) * kCachedColumnThreads + threadIdx.x;
  if (column >= inner) return;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    const float* xo = x + o * extent * inner + column;
    float values[kMaxExtent];
    float sum = 0.f;
#pragma unroll
    for (int a = 0; a < kMaxExtent; ++a) {
      values[a] = a < extent ? xo[a * inner] : 0.f;
      sum += values[a] * values[a];
    }
    const float rms = sqrtf(sum / static_cast<float>(extent) + eps);
    float* yo = y + o * extent * inner + column;
#pragma unroll
    for (int a = 0; a < kMaxExtent; ++a)
      if (a < extent) yo[a * inner] = values[a] / rms;
  }
}

// The same with four adjacent columns per thread (float4) and the column's values split over
// kFloat4Groups warps of a block, each holding up to kFloat4ValuesPerThread of them in registers;
// the groups' sums of squares meet in shared memory. Each warp reads 512 contiguous bytes per
// row with a quarter of the load instructions: 4.62 → 3.68 ms at L1 #36's [112, 64, 512²]
// (4.1 TB/s; torch.compile 3.69 ms; the best of 9 variants within 0.3 %, TMA bulk copies
// included: H200 2026-12-04, a standalone variant bench). Needs inner a multiple of
// kFloat4Columns and 16-byte aligned x and y.
constexpr int kFloat4Lanes = 32;                                    // float4 columns per block
constexpr int kFloat4Groups = 8;                                    // warps splitting the axis
constexpr int kFloat4ValuesPerThread = kCachedColumnExtent / kFloat4Groups;
constexpr int64_t kFloat4Columns = int64_t{kFloat4Lanes} * 4;

__device__ __forceinline__ float4 squares_added(float4 sum, float4 v) {
  return make_float4(sum.x + v.x * v.x, sum.y + v.y * v.y, sum.z + v.z * v.z, sum.w + v.w * v.w);
}

template <int kMaxPerThread>  // a template, as every kernel defined in this header
__global__ void __launch_bounds__(kFloat4Lanes* kFloat4Groups)
    rmsnorm_float4_column_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t outer, int extent, int64_t inner,
                                 float eps) {
  __shared__ float4 partial[kFloat4Groups][kFloat4Lanes];
  const int lane = static_cast<int>(threadIdx.x) % kFloat4Lanes;
  const int group = static_cast<int>(threadIdx.x) / kFloat4Lanes;
  const int per_group = (extent + kFloat4Groups - 1) / kFloat4Groups;  // ≤ kMaxPerThread (launcher)
  const int first = group * per_group;
  const int64_t inner4 = inner / 4;
  const int64_t column4 = static_cast<int64_t>(blockIdx.x) * kFloat4Lanes + lane;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    const int64_t offset = (o * extent + first) * inner4 + column4;
    const float4* xo = reinterpret_cast<const float4*>(x) + offset;
    float4* yo = reinterpret_cast<float4*>(y) + offset;
    float4 values[kMaxPerThread];
    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int k = 0; k < kMaxPerThread; ++k) {
      values[k] = k < per_group && first + k < extent ? xo[k * inner4] : make_float4(0.f, 0.f, 0.f, 0.f);
      sum = squares_added(sum, values[k]);
    }
    partial[group][lane] = sum;
    __syncthreads();
    float4 total = partial[0][lane];
#pragma unroll
    for (int g = 1; g < kFloat4Groups; ++g) {
      const float4 p = partial[g][lane];
      total = make_float4(total.x + p.x, total.y + p.y, total.z + p.z, total.w + p.w);
    }
    __syncthreads();  // `partial` is rewritten for the next `o`
    // One reciprocal per column, then products (within an ulp of dividing each value).
    const float n = static_cast<float>(extent);
    const float4 inverse = make_float4(1.f / sqrtf(total.x / n + eps), 1.f / sqrtf(total.y / n + eps),
                                       1.f / sqrtf(total.z / n + eps), 1.f / sqrtf(total.w / n + eps));
#pragma unroll
    for (int k = 0; k < kMaxPerThread; ++k)
      if (k < per_group && first + k < extent)
        yo[k * inner4] = make_float4(values[k].x * inverse.x, values[k].y * inverse.y, values[k].z * inverse.z, values[k].w * inverse.w);
  }
}

// The splits the float4 column kernel takes; it also needs x and y 16-byte aligned (float4_columns).
inline bool float4_column_split(const AxisSplit& split) {
  return split.inner > 1 && split.extent <= kCachedColumnExtent && split.inner % kFloat4Columns == 0;
}
inline bool float4_columns(const AxisSplit& split, const float* x, const float* y) {
  return float4_column_split(split) && device::aligned16(x) && device::aligned16(y);
}

template <int kKind>
void reduce_like(const AxisSplit& split, float eps, const float* x, float* y,
                 cudaStream_t stream) {
  if (split.outer * split.extent * split.inner == 0) return;
  if (split.inner == 1) {
    // rmsnorm writes y row by row too, so it needs y aligned like x; sum/mean write scalars.
    const bool vector = vectorizable(split.extent, x, kKind == kRmsNorm ? y : x);
    const int threads = row_threads(vector ? split.extent / 4 : split.extent);
    if (vector)
      reduce_row_kernel<kKind, true><<<row_blocks(split.outer), threads, 0, stream>>>(
          x, y, split.outer, split.extent, eps);
    else
      reduce_row_kernel<kKind, false><<<row_blocks(split.outer), threads, 0, stream>>>(
          x, y, split.outer, split.extent, eps);
  } else if (kKind == kRmsNorm && float4_columns(split, x, y)) {
    const dim3 grid(static_cast<unsigned>(split.inner / kFloat4Columns), static_cast<unsigned>(std::min<int64_t>(split.outer, kMaxGridY)));
    rmsnorm_float4_column_kernel<kFloat4ValuesPerThread><<<grid, kFloat4Lanes * kFloat4Groups, 0, stream>>>(
        x, y, split.outer, static_cast<int>(split.extent), split.inner, eps);
  } else if (kKind == kRmsNorm && split.extent <= kCachedColumnExtent) {
    const dim3 grid(static_cast<unsigned>((split.inner + kCachedColumnThreads - 1) / kCachedColumnThreads),
                    static_cast<unsigned>(std::min<int64_t>(split.outer, kMaxGridY)));
    rmsnorm_cached_column_kernel<kCachedColumnExtent><<<grid, kCachedColumnThreads, 0, stream>>>(x, y, split.outer, static_cast<int>(split.extent),
                                                                           split.inner, eps);
  } else {
    reduce_column_kernel<kKind><<<column_grid(split), kColumnBlock, 0, stream>>>(
        x, y, split.outer, split.extent, split.inner, eps);
  }
  cuda::check_launch(kKind == kRmsNorm ? "kbv rmsnorm kernel" : "kbv reduction kernel");
}

// "[outer=…, extent=…, inner=…]", for step descriptions.
inline std::string split_text(const AxisSplit& s) {
  return "[outer=" + std::to_string(s.outer) + ", extent=" + std::to_string(s.extent) +
         ", inner=" + std::to_string(s.inner) + "]";
}

}  // namespace kbv::ops::baseline
