// data/reference_kernels.hpp — the fp64 device kernels behind the reference ops, as plain
// functions of pointers and sizes (no op or spec types, so the .cu files stay light to compile).
// Every function launches asynchronously on `stream` and throws CudaError if a launch fails.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::cuda::ref {

// ---- elementwise (elementwise_f64.cu) ----
// ---- convolution (conv_pool_f64.cu) ----
struct ConvGeometry {
  int64_t batch = 0, in_channels = 0, in_h = 0, in_w = 0;
  int64_t out_channels = 0, kernel_h = 0, kernel_w = 0, out_h = 0, out_w = 0;
  int64_t stride = 1, padding = 0, dilation = 1, groups = 1;
  int64_t group_in_channels() const { return in_channels / groups; }
  int64_t group_out_channels() const { return out_channels / groups; }
  // Rows of one group's column matrix: input channels × kernel taps.
  int64_t column_rows() const { return group_in_channels() * kernel_h * kernel_w; }
  int64_t out_pixels() const { return out_h * out_w; }
};
// columns[r * column_count + (p - first_column)] for r < column_rows(), output pixels
// p in [first_column, first_column + column_count): the input tap that row r (channel, kh, kw
// of group `group`) reads for output pixel p of image `image`, 0 where it falls in the padding.
void im2col_f64(const double* x, double* columns, const ConvGeometry& geometry, int64_t image,
                int64_t group, int64_t first_column, int64_t column_count, cudaStream_t stream);

}  // namespace kbv::cuda::ref
