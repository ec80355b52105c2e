// data/conv_pool_f64.cu — fp64 reference kernel for convolution (im2col, the GEMM is cuBLAS's),
// NCHW layout.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "data/reference_kernels.hpp"

namespace kbv::cuda::ref {
namespace {

// One block row (blockIdx.y, striding by gridDim.y) per column-matrix row r = (channel, kh, kw),
// decomposed once; threads stride over that row's pixels with one division each, in `Index`
// (32-bit where the pixel indices fit: a 64-bit division per element, six of them, made this
// kernel, not cuBLAS's Dgemm, the cost of an fp64 conv2d reference — H200, 2026-11-29: ~60 ms
// per 616-GFLOP KernelBench conv2d).
template <class Index>
__global__ void im2col_kernel(const double* x, double* columns, ConvGeometry g, int64_t image,
                              int64_t group, int64_t first_column, int64_t column_count,
                              int64_t rows) {
  const Index out_w = static_cast<Index>(g.out_w);
  const int64_t taps = g.kernel_w * g.kernel_h;
  for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const int64_t tap_w = row % g.kernel_w;
    const int64_t tap_h = (row / g.kernel_w) % g.kernel_h;
    const int64_t channel = group * (g.in_channels / g.groups) + row / taps;
    const double* plane = x + (image * g.in_channels + channel) * g.in_h * g.in_w;
    const int64_t h_offset = tap_h * g.dilation - g.padding;
    const int64_t w_offset = tap_w * g.dilation - g.padding;
    double* out_row = columns + row * column_count;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < column_count;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
      const Index pixel = static_cast<Index>(first_column + i);
      const Index oh = pixel / out_w;
      const Index ow = pixel - oh * out_w;
      const int64_t ih = static_cast<int64_t>(oh) * g.stride + h_offset;
      const int64_t iw = static_cast<int64_t>(ow) * g.stride + w_offset;
      const bool inside = ih >= 0 && ih < g.in_h && iw >= 0 && iw < g.in_w;
      out_row[i] = inside ? plane[ih * g.in_w + iw] : 0.0;
    }
  }
}

}  // namespace

void im2col_f64(const double* x, double* columns, const ConvGeometry& geometry, int64_t image,
                int64_t group, int64_t first_column, int64_t column_count, cudaStream_t stream) {
  const int64_t rows = geometry.column_rows();
  if (rows <= 0 || column_count <= 0) return;
  constexpr int64_t kMaxGridY = 65535;
  constexpr int64_t kTargetBlocks = 65536;  // enough to fill any current GPU many times over
  const int64_t grid_y = std::min(rows, kMaxGridY);
  const int64_t pixel_blocks = (column_count + detail::kBlockThreads - 1) / detail::kBlockThreads;
  const int64_t grid_x = std::clamp<int64_t>(pixel_blocks, 1, std::max<int64_t>(1, kTargetBlocks / grid_y));
  const dim3 grid(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y));
  if (first_column + column_count <= static_cast<int64_t>(UINT32_MAX) && geometry.out_w <= static_cast<int64_t>(UINT32_MAX))
    im2col_kernel<uint32_t><<<grid, detail::kBlockThreads, 0, stream>>>(x, columns, geometry, image, group, first_column,
                                                                        column_count, rows);
  else
    im2col_kernel<int64_t><<<grid, detail::kBlockThreads, 0, stream>>>(x, columns, geometry, image, group, first_column,
                                                                       column_count, rows);
  check_launch("im2col_kernel");
}

}  // namespace kbv::cuda::ref
