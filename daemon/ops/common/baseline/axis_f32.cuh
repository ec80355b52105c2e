// ops/common/baseline/axis_f32.cuh — what the CUDA fp32 baselines along one axis of
// [outer, extent, inner] share (softmax, sum, mean, rmsnorm). Rows (inner == 1) take one block
// per row with warp-shuffle reductions; columns (inner > 1) take 32 adjacent columns per block
// with the axis split over 8 thread rows, so every warp reads 128 contiguous bytes per step.
// Also the one kernel family behind sum, mean and rmsnorm (reduce_like), and sum and mean over
// columns in float4s through the rows' period (reduce_columns_by_period).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>

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

__host__ __device__ __forceinline__ float4 float4_added(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }

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
    for (int g = 1; g < kFloat4Groups; ++g) total = float4_added(total, partial[g][lane]);
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

// ---- sum and mean over columns in float4s, through the rows' period ----
// Rows of `inner` floats that are not a multiple of 4 (sum_dim1's 4095) rule out float4 loads
// down a column, but p = 4 / gcd(inner, 4) rows are a whole number of float4s, and float4 j of
// every such group of p rows holds the same four (row in the group, column) positions. So thread
// j sums float4 j over the groups (a warp loads 512 aligned contiguous bytes, a quarter of the
// load instructions of reduce_column_kernel's 4-byte loads), the block's kPeriodSlices warps split
// the groups, and a second kernel adds each column's p positions from a scratch of [outer,
// p·inner] floats. sum_dim1's [128, 4096, 4095]: 1.951 ms against reduce_column_kernel's 2.094
// and PyTorch eager's 2.105 (H200, r88, as a bench variant; kbv_bench_cuda_timing
// --column-reduce). Needs extent % p == 0 and x 16-byte aligned.
constexpr int kPeriodLanes = 32;   // float4 columns a block
constexpr int kPeriodSlices = 8;   // warps splitting the groups of rows

inline int row_period(int64_t inner) { return 4 / std::gcd(static_cast<int>(inner % 4), 4); }
inline bool period_split(const AxisSplit& split) { return split.inner > 1 && split.extent % row_period(split.inner) == 0; }
inline bool period_columns(const AxisSplit& split, const float* x) { return period_split(split) && device::aligned16(x); }
inline size_t period_scratch_bytes(const AxisSplit& split) {
  return static_cast<size_t>(split.outer * row_period(split.inner) * split.inner) * sizeof(float);
}

// One thread's sum in the first kernel: float4 j of the groups slice, slice + kPeriodSlices, … of
// outer index o (x as float4s, `groups` groups of `group_float4s` each per outer index). Host code
// too: axis_period_host_test plays every thread.
template <int kUnroll>
__host__ __device__ __forceinline__ float4 period_slice_sum(const float4* __restrict__ x, int64_t o, int64_t groups, int64_t group_float4s,
                                                            int64_t j, int slice) {
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  const float4* xo = x + o * groups * group_float4s + j;
#ifdef __CUDA_ARCH__
#pragma unroll(kUnroll)
#endif
  for (int64_t g = slice; g < groups; g += kPeriodSlices) acc = float4_added(acc, xo[g * group_float4s]);
  return acc;
}

// The second kernel's value for y[o, column]: the column's `period` positions in the scratch
// ([outer, period · inner]: position r · inner + column is row r of the group), summed.
__host__ __device__ __forceinline__ float period_column_total(const float* __restrict__ scratch, int64_t o, int64_t column, int64_t inner,
                                                              int period) {
  const float* s = scratch + o * period * inner + column;
  float total = 0.f;
  for (int r = 0; r < period; ++r) total += s[r * inner];
  return total;
}

template <int kUnroll>  // a template, as every kernel defined in this header
__global__ void __launch_bounds__(kPeriodLanes* kPeriodSlices)
    period_float4_sum_kernel(const float4* __restrict__ x, float4* __restrict__ scratch, int64_t outer, int64_t groups, int64_t group_float4s) {
  __shared__ float4 partial[kPeriodSlices][kPeriodLanes];
  const int64_t j = static_cast<int64_t>(blockIdx.x) * kPeriodLanes + threadIdx.x;
  const bool active = j < group_float4s;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    partial[threadIdx.y][threadIdx.x] =
        active ? period_slice_sum<kUnroll>(x, o, groups, group_float4s, j, static_cast<int>(threadIdx.y)) : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    if (active && threadIdx.y == 0) {
      float4 total = partial[0][threadIdx.x];
#pragma unroll
      for (int s = 1; s < kPeriodSlices; ++s) total = float4_added(total, partial[s][threadIdx.x]);
      scratch[o * group_float4s + j] = total;
    }
    __syncthreads();  // `partial` is rewritten for the next `o`
  }
}

template <int kKind>  // kSum or kMean
__global__ void period_columns_kernel(const float* __restrict__ scratch, float* __restrict__ y, int64_t outer, int64_t extent, int64_t inner,
                                      int period) {
  const int64_t count = outer * inner;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < count; i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = i / inner, column = i - o * inner;
    const float total = period_column_total(scratch, o, column, inner, period);
    y[i] = kKind == kMean ? total / static_cast<float>(extent) : total;
  }
}

// y = the sum (kSum) or mean (kMean) of x along the axis of `split`, where period_columns(split, x);
// `scratch` holds period_scratch_bytes(split).
template <int kKind>
void reduce_columns_by_period(const AxisSplit& split, const float* x, float* y, float* scratch, cudaStream_t stream) {
  static_assert(kKind == kSum || kKind == kMean, "rmsnorm writes every element, not one per column");
  if (split.outer * split.extent * split.inner == 0) return;
  const int period = row_period(split.inner);
  const int64_t group_float4s = period * split.inner / 4, groups = split.extent / period;
  const dim3 grid(static_cast<unsigned>((group_float4s + kPeriodLanes - 1) / kPeriodLanes),
                  static_cast<unsigned>(std::min<int64_t>(split.outer, kMaxGridY)));
  period_float4_sum_kernel<4><<<grid, dim3(kPeriodLanes, kPeriodSlices), 0, stream>>>(
      reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(scratch), split.outer, groups, group_float4s);
  cuda::check_launch("kbv column sum by row period (float4 sums)");
  constexpr int kThreads = 256;
  constexpr int64_t kMaxBlocks = 65535;
  const int64_t blocks = std::clamp<int64_t>((split.outer * split.inner + kThreads - 1) / kThreads, 1, kMaxBlocks);
  period_columns_kernel<kKind><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(scratch, y, split.outer, split.extent, split.inner, period);
  cuda::check_launch("kbv column sum by row period (columns)");
}

// "[outer=…, extent=…, inner=…]", for step descriptions.
inline std::string split_text(const AxisSplit& s) {
  return "[outer=" + std::to_string(s.outer) + ", extent=" + std::to_string(s.extent) +
         ", inner=" + std::to_string(s.inner) + "]";
}

}  // namespace kbv::ops::baseline
