// bench/cuda_timing/column_reduce_variants.cu — the column sum in other shapes than the library's
// (axis_f32.cuh, reduce_column_kernel: a block of 32 columns × 8 axis slices, `#pragma unroll 4`,
// each load at x + (o·extent + a)·inner + column). r83 (H100) timed the library's sum_dim1 at
// 3.179 ms, 2.7 TB/s of its 8.6 GB, against PyTorch eager's 2.875 (3.0 TB/s): these vary the
// loads each thread keeps in flight (slices, unroll), the block's width (32 or 64 columns) and
// the address arithmetic (a running pointer in place of a 64-bit product per load: slower), the block's
// width up to 256 columns (1 KiB of each row a block, for DRAM pages read whole by one block), and
// float4 loads through the rows' period (period_float4_*: below).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <stdexcept>

#include "common/cuda_error.hpp"
#include "column_reduce_variants.hpp"

namespace kbv::bench {
namespace {

constexpr int64_t kMaxGridY = 65535;

// kPointer: a running pointer walks the axis (r85a, H100: 3.73 ms against the library's 3.29 at 32 ×
// 8, unroll 4); else the library's form, a 64-bit product per load.
template <int kTile, int kSlices, int kUnroll, bool kPointer>
__global__ void __launch_bounds__(kTile* kSlices) column_sum_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t outer, int64_t extent,
                                                                     int64_t inner) {
  __shared__ float partial[kSlices][kTile];
  const int64_t column = static_cast<int64_t>(blockIdx.x) * kTile + threadIdx.x;
  const bool active = column < inner;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    float acc = 0.f;
    if (active) {
      if constexpr (kPointer) {
        const int64_t step = kSlices * inner;
        const float* p = x + (o * extent + threadIdx.y) * inner + column;
        const float* end = x + (o + 1) * extent * inner;
#pragma unroll(kUnroll)
        for (; p < end; p += step) acc += *p;
      } else {
        const float* xo = x + o * extent * inner + column;
#pragma unroll(kUnroll)
        for (int64_t a = threadIdx.y; a < extent; a += kSlices) acc += xo[a * inner];
      }
    }
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (active && threadIdx.y == 0) {
      float total = 0.f;
#pragma unroll
      for (int s = 0; s < kSlices; ++s) total += partial[s][threadIdx.x];
      y[o * inner + column] = total;
    }
    __syncthreads();
  }
}

// Float4 loads through the rows' period. Rows of `inner` floats (4095: not a multiple of 4) rule out
// float4 loads along a column, but p = 4 / gcd(inner, 4) rows are a whole number of float4s, and
// float4 j of every such group of p rows holds the same four (row in group, column) positions.
// So thread j sums float4 j over the groups (aligned 512-byte warp loads, a quarter of the load
// instructions), the block's 8 slices split the groups, and a second kernel adds each column's p
// positions from the scratch [outer, p·inner]. Needs extent % p == 0 and x 16-byte aligned.
constexpr int kPeriodLanes = 32;
constexpr int kPeriodSlices = 8;

__device__ __forceinline__ float4 added(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }

template <int kUnroll>
__global__ void __launch_bounds__(kPeriodLanes* kPeriodSlices)
    period_float4_kernel(const float4* __restrict__ x, float4* __restrict__ scratch, int64_t outer, int64_t groups, int64_t group_float4s) {
  __shared__ float4 partial[kPeriodSlices][kPeriodLanes];
  const int64_t j = static_cast<int64_t>(blockIdx.x) * kPeriodLanes + threadIdx.x;
  const bool active = j < group_float4s;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    if (active) {
      const float4* xo = x + o * groups * group_float4s + j;
#pragma unroll(kUnroll)
      for (int64_t g = threadIdx.y; g < groups; g += kPeriodSlices) acc = added(acc, xo[g * group_float4s]);
    }
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (active && threadIdx.y == 0) {
      float4 total = partial[0][threadIdx.x];
#pragma unroll
      for (int s = 1; s < kPeriodSlices; ++s) total = added(total, partial[s][threadIdx.x]);
      scratch[o * group_float4s + j] = total;
    }
    __syncthreads();
  }
}

__global__ void period_columns_kernel(const float* __restrict__ scratch, float* __restrict__ y, int64_t outer, int64_t inner, int period) {
  const int64_t count = outer * inner;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < count; i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t o = i / inner, column = i - o * inner;
    const float* s = scratch + o * period * inner + column;
    float total = 0.f;
    for (int r = 0; r < period; ++r) total += s[r * inner];
    y[i] = total;
  }
}

int row_period(int64_t inner) { return 4 / std::gcd(static_cast<int>(inner % 4), 4); }

bool period_applies(const float* x, int64_t extent, int64_t inner) {
  return extent % row_period(inner) == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0;
}

using Launch = void (*)(const float*, float*, float*, int64_t, int64_t, int64_t, cudaStream_t);

template <int kUnroll>
void launch_period(const float* x, float* y, float* scratch, int64_t outer, int64_t extent, int64_t inner, cudaStream_t stream) {
  const int period = row_period(inner);
  const int64_t group_float4s = period * inner / 4, groups = extent / period;
  const dim3 grid(static_cast<unsigned>((group_float4s + kPeriodLanes - 1) / kPeriodLanes), static_cast<unsigned>(std::min(outer, kMaxGridY)));
  period_float4_kernel<kUnroll><<<grid, dim3(kPeriodLanes, kPeriodSlices), 0, stream>>>(
      reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(scratch), outer, groups, group_float4s);
  cuda::check_launch("column sum by period (float4 sums)");
  constexpr int kThreads = 256;
  const int64_t blocks = std::min<int64_t>((outer * inner + kThreads - 1) / kThreads, 65535);
  period_columns_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(scratch, y, outer, inner, period);
  cuda::check_launch("column sum by period (columns)");
}

template <int kTile, int kSlices, int kUnroll, bool kPointer = false>
void launch(const float* x, float* y, float*, int64_t outer, int64_t extent, int64_t inner, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((inner + kTile - 1) / kTile), static_cast<unsigned>(std::min(outer, kMaxGridY)));
  column_sum_kernel<kTile, kSlices, kUnroll, kPointer><<<grid, dim3(kTile, kSlices), 0, stream>>>(x, y, outer, extent, inner);
  cuda::check_launch("column sum variant");
}

struct Variant {
  const char* name;
  Launch launch;
  bool by_period = false;  // needs period_applies
};

constexpr Variant kVariants[] = {
    {"32 columns x 8 slices, unroll 4 (the library's form)", launch<32, 8, 4>},
    {"32 columns x 8 slices, unroll 4, running pointer", launch<32, 8, 4, true>},
    {"32 columns x 16 slices, unroll 4", launch<32, 16, 4>},
    {"32 columns x 8 slices, unroll 8", launch<32, 8, 8>},
    {"64 columns x 8 slices, unroll 4", launch<64, 8, 4>},
    {"128 columns x 4 slices, unroll 4", launch<128, 4, 4>},
    {"128 columns x 8 slices, unroll 4", launch<128, 8, 4>},
    {"256 columns x 2 slices, unroll 8", launch<256, 2, 8>},
    {"256 columns x 4 slices, unroll 4", launch<256, 4, 4>},
    {"float4 by row period, 32 float4 x 8 slices, unroll 4", launch_period<4>, true},
    {"float4 by row period, 32 float4 x 8 slices, unroll 8", launch_period<8>, true},
};

}  // namespace

std::vector<ColumnReduceVariant> column_reduce_variants(const float* x, int64_t extent, int64_t inner) {
  std::vector<ColumnReduceVariant> variants;
  for (int i = 0; i < static_cast<int>(std::size(kVariants)); ++i)
    if (!kVariants[i].by_period || period_applies(x, extent, inner)) variants.push_back({kVariants[i].name, i});
  return variants;
}

int64_t column_reduce_scratch_floats(int64_t outer, int64_t inner) { return outer * row_period(inner) * inner; }

void run_column_reduce_variant(const ColumnReduceVariant& variant, const float* x, float* y, float* scratch, int64_t outer, int64_t extent,
                               int64_t inner, cudaStream_t stream) {
  if (variant.index < 0 || variant.index >= static_cast<int>(std::size(kVariants))) throw std::invalid_argument("no such column sum variant");
  kVariants[variant.index].launch(x, y, scratch, outer, extent, inner, stream);
}

}  // namespace kbv::bench
