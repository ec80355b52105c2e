// data/conv_pool_f64.cu — fp64 reference kernels for convolution (im2col, the GEMM is cuBLAS's)
// and 2-D max pooling, NCHW layout.
#include <cmath>

#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "data/reference_kernels.hpp"

namespace kbv::cuda::ref {
namespace {

__global__ void im2col_kernel(const double* x, double* columns, ConvGeometry g, int64_t image,
                              int64_t group, int64_t first_column, int64_t column_count,
                              int64_t total) {
  for (int64_t idx = detail::global_thread_index(); idx < total; idx += detail::grid_stride()) {
    const int64_t row = idx / column_count;
    const int64_t pixel = first_column + idx % column_count;
    const int64_t oh = pixel / g.out_w, ow = pixel % g.out_w;
    const int64_t tap_w = row % g.kernel_w;
    const int64_t tap_h = (row / g.kernel_w) % g.kernel_h;
    const int64_t group_in_channels = g.in_channels / g.groups;
    const int64_t channel = group * group_in_channels + row / (g.kernel_w * g.kernel_h);
    const int64_t ih = oh * g.stride - g.padding + tap_h * g.dilation;
    const int64_t iw = ow * g.stride - g.padding + tap_w * g.dilation;
    const bool inside = ih >= 0 && ih < g.in_h && iw >= 0 && iw < g.in_w;
    columns[idx] =
        inside ? x[((image * g.in_channels + channel) * g.in_h + ih) * g.in_w + iw] : 0.0;
  }
}

__global__ void maxpool_kernel(const double* x, double* y, PoolGeometry g, int64_t total) {
  for (int64_t idx = detail::global_thread_index(); idx < total; idx += detail::grid_stride()) {
    const int64_t ow = idx % g.out_w;
    const int64_t oh = (idx / g.out_w) % g.out_h;
    const int64_t plane = idx / (g.out_w * g.out_h);
    const double* in = x + plane * g.in_h * g.in_w;
    double best = -INFINITY;
    for (int64_t kh = 0; kh < g.kernel; ++kh) {
      const int64_t ih = oh * g.stride - g.padding + kh * g.dilation;
      if (ih < 0 || ih >= g.in_h) continue;
      for (int64_t kw = 0; kw < g.kernel; ++kw) {
        const int64_t iw = ow * g.stride - g.padding + kw * g.dilation;
        if (iw < 0 || iw >= g.in_w) continue;
        const double value = in[ih * g.in_w + iw];
        if (value > best || isnan(value)) best = value;  // PyTorch's rule: NaN sticks
        if (isnan(best)) break;
      }
      if (isnan(best)) break;
    }
    y[idx] = best;
  }
}

}  // namespace

void im2col_f64(const double* x, double* columns, const ConvGeometry& geometry, int64_t image,
                int64_t group, int64_t first_column, int64_t column_count, cudaStream_t stream) {
  const int64_t total = geometry.column_rows() * column_count;
  if (total <= 0) return;
  im2col_kernel<<<detail::grid_for(total), detail::kBlockThreads, 0, stream>>>(
      x, columns, geometry, image, group, first_column, column_count, total);
  check_launch("im2col_kernel");
}

void maxpool2d_f64(const double* x, double* y, const PoolGeometry& geometry, cudaStream_t stream) {
  const int64_t total = geometry.planes * geometry.out_h * geometry.out_w;
  if (total <= 0) return;
  maxpool_kernel<<<detail::grid_for(total), detail::kBlockThreads, 0, stream>>>(x, y, geometry,
                                                                                total);
  check_launch("maxpool_kernel");
}

}  // namespace kbv::cuda::ref
