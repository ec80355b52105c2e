// bench/cuda_timing/column_reduce_variants.cu — the column sum in forms other than the library's
// (axis_f32.cuh: float4 sums through the rows' period since r88): its plain kernel before that
// (reduce_column_kernel: a block of 32 columns × 8 axis slices, `#pragma unroll 4`, each load at
// x + (o·extent + a)·inner + column), and that kernel's shape varied: the loads each thread keeps
// in flight (slices, unroll), the block's width up to 256 columns (1 KiB of each row a block), and
// the address arithmetic (a running pointer in place of a 64-bit product per load: slower). r83
// (H100) timed the plain kernel at 3.179 ms for sum_dim1, 2.7 TB/s of its 8.6 GB, against PyTorch
// eager's 2.875; r88 (H200) 2.094 against eager's 2.105, the widest variants ~2.03, the period
// form 1.951 (docs/results/timing.md).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>

#include "column_reduce_variants.hpp"
#include "common/cuda_error.hpp"
#include "ops/common/baseline/axis_f32.cuh"

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

using Launch = void (*)(const float*, float*, int64_t, int64_t, int64_t, cudaStream_t);

// The library's column kernel before r88 (axis_f32.cuh, reduce_column_kernel through reduce_like),
// which the library now keeps for splits the period form does not take.
void launch_plain_library(const float* x, float* y, int64_t outer, int64_t extent, int64_t inner, cudaStream_t stream) {
  ops::baseline::reduce_like<ops::baseline::kSum>(op_support::AxisSplit{outer, extent, inner}, 0.f, x, y, stream);
}

template <int kTile, int kSlices, int kUnroll, bool kPointer = false>
void launch(const float* x, float* y, int64_t outer, int64_t extent, int64_t inner, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((inner + kTile - 1) / kTile), static_cast<unsigned>(std::min(outer, kMaxGridY)));
  column_sum_kernel<kTile, kSlices, kUnroll, kPointer><<<grid, dim3(kTile, kSlices), 0, stream>>>(x, y, outer, extent, inner);
  cuda::check_launch("column sum variant");
}

struct Variant {
  const char* name;
  Launch launch;
};

constexpr Variant kVariants[] = {
    {"the plain column kernel (reduce_like; the library's before r88)", launch_plain_library},
    {"32 columns x 8 slices, unroll 4, running pointer", launch<32, 8, 4, true>},
    {"32 columns x 16 slices, unroll 4", launch<32, 16, 4>},
    {"32 columns x 8 slices, unroll 8", launch<32, 8, 8>},
    {"64 columns x 8 slices, unroll 4", launch<64, 8, 4>},
    {"128 columns x 4 slices, unroll 4", launch<128, 4, 4>},
    {"128 columns x 8 slices, unroll 4", launch<128, 8, 4>},
    {"256 columns x 2 slices, unroll 8", launch<256, 2, 8>},
    {"256 columns x 4 slices, unroll 4", launch<256, 4, 4>},
};

}  // namespace

std::vector<ColumnReduceVariant> column_reduce_variants() {
  std::vector<ColumnReduceVariant> variants;
  for (int i = 0; i < static_cast<int>(std::size(kVariants)); ++i) variants.push_back({kVariants[i].name, i});
  return variants;
}

void run_column_reduce_variant(const ColumnReduceVariant& variant, const float* x, float* y, int64_t outer, int64_t extent, int64_t inner,
                               cudaStream_t stream) {
  if (variant.index < 0 || variant.index >= static_cast<int>(std::size(kVariants))) throw std::invalid_argument("no such column sum variant");
  kVariants[variant.index].launch(x, y, outer, extent, inner, stream);
}

}  // namespace kbv::bench
