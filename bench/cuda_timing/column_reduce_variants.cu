// bench/cuda_timing/column_reduce_variants.cu — the column sum in other shapes than the library's
// (axis_f32.cuh, reduce_column_kernel: a block of 32 columns × 8 axis slices, `#pragma unroll 4`,
// each load at x + (o·extent + a)·inner + column). r83 (H100) timed the library's sum_dim1 at
// 3.179 ms, 2.7 TB/s of its 8.6 GB, against PyTorch eager's 2.875 (3.0 TB/s): these vary the
// loads each thread keeps in flight (slices, unroll), the block's width (32 or 64 columns) and
// the address arithmetic (a running pointer in place of a 64-bit product per load).
#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "common/cuda_error.hpp"
#include "column_reduce_variants.hpp"

namespace kbv::bench {
namespace {

constexpr int64_t kMaxGridY = 65535;

template <int kTile, int kSlices, int kUnroll>
__global__ void __launch_bounds__(kTile* kSlices) column_sum_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t outer, int64_t extent,
                                                                     int64_t inner) {
  __shared__ float partial[kSlices][kTile];
  const int64_t column = static_cast<int64_t>(blockIdx.x) * kTile + threadIdx.x;
  const bool active = column < inner;
  const int64_t step = kSlices * inner;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    float acc = 0.f;
    if (active) {
      const float* p = x + (o * extent + threadIdx.y) * inner + column;
      const float* end = x + (o + 1) * extent * inner;
#pragma unroll(kUnroll)
      for (; p < end; p += step) acc += *p;
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

template <int kTile, int kSlices, int kUnroll>
void launch(const float* x, float* y, int64_t outer, int64_t extent, int64_t inner, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((inner + kTile - 1) / kTile), static_cast<unsigned>(std::min(outer, kMaxGridY)));
  column_sum_kernel<kTile, kSlices, kUnroll><<<grid, dim3(kTile, kSlices), 0, stream>>>(x, y, outer, extent, inner);
  cuda::check_launch("column sum variant");
}

struct Variant {
  const char* name;
  Launch launch;
};

constexpr Variant kVariants[] = {
    {"32 columns x 8 slices, unroll 4, running pointer", launch<32, 8, 4>},
    {"32 columns x 8 slices, unroll 8, running pointer", launch<32, 8, 8>},
    {"32 columns x 16 slices, unroll 4, running pointer", launch<32, 16, 4>},
    {"32 columns x 16 slices, unroll 8, running pointer", launch<32, 16, 8>},
    {"32 columns x 32 slices, unroll 4, running pointer", launch<32, 32, 4>},
    {"64 columns x 8 slices, unroll 8, running pointer", launch<64, 8, 8>},
    {"64 columns x 16 slices, unroll 4, running pointer", launch<64, 16, 4>},
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
