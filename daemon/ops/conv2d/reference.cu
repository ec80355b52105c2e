// daemon/ops/conv2d/reference.cu — conv2d's CUDA fp64 reference: im2col in chunks of output pixels
// (kbv's kernel), each followed by one cuBLAS Dgemm per group, then the bias.
#include "ops/conv2d/reference.hpp"

#include <algorithm>
#include <cstdint>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/launch.cuh"
#include "ops/conv2d/conv2d.hpp"
#include "ops/common/reference/channel_bias_f64.hpp"
#include "ops/common/reference/gemm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"
#include "ops/registry.hpp"

namespace kbv::ops::conv2d {
namespace {

using cuda::DeviceBuffer;
using cuda::detail::kBlockThreads;

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

// One block row (blockIdx.y, striding by gridDim.y) per column-matrix row r = (channel, kh, kw),
// decomposed once; threads stride over that row's pixels with one division each, in `Index`
// (32-bit where the pixel indices fit: with a 64-bit division per element, six of them, this
// kernel rather than cuBLAS's Dgemm was the cost of an fp64 conv2d reference, ~60 ms per
// 616-GFLOP KernelBench conv2d on an H200).
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

// columns[r * column_count + (p - first_column)] for r < column_rows(), output pixels
// p in [first_column, first_column + column_count): the input tap that row r (channel, kh, kw
// of group `group`) reads for output pixel p of image `image`, 0 where it falls in the padding.
void im2col_f64(const double* x, double* columns, const ConvGeometry& geometry, int64_t image,
                int64_t group, int64_t first_column, int64_t column_count, cudaStream_t stream) {
  const int64_t rows = geometry.column_rows();
  if (rows <= 0 || column_count <= 0) return;
  constexpr int64_t kMaxGridY = 65535;
  constexpr int64_t kTargetBlocks = 65536;  // enough to fill any current GPU many times over
  const int64_t grid_y = std::min(rows, kMaxGridY);
  const int64_t pixel_blocks = (column_count + kBlockThreads - 1) / kBlockThreads;
  const int64_t grid_x = std::clamp<int64_t>(pixel_blocks, 1, std::max<int64_t>(1, kTargetBlocks / grid_y));
  const dim3 grid(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y));
  if (first_column + column_count <= static_cast<int64_t>(UINT32_MAX) && geometry.out_w <= static_cast<int64_t>(UINT32_MAX))
    im2col_kernel<uint32_t><<<grid, kBlockThreads, 0, stream>>>(x, columns, geometry, image, group,
                                                                first_column, column_count, rows);
  else
    im2col_kernel<int64_t><<<grid, kBlockThreads, 0, stream>>>(x, columns, geometry, image, group,
                                                               first_column, column_count, rows);
  cuda::check_launch("im2col_kernel");
}

// im2col in chunks of output pixels, each followed by one GEMM per group:
//   y[n, group's channels, chunk] = weight[group] [Og, Kc] · columns [Kc, chunk].
void conv2d_chunked(const ReferenceCall& c, size_t max_column_bytes) {
  const Shape& x = c.shape(0);
  const Shape& w = c.shape(1);
  const Shape& y = c.output_shape();  // validated against the host's infer_shape
  ConvGeometry g;
  g.batch = x[0], g.in_channels = x[1], g.in_h = x[2], g.in_w = x[3];
  g.out_channels = w[0], g.kernel_h = w[2], g.kernel_w = w[3], g.out_h = y[2], g.out_w = y[3];
  g.stride = c.integer("stride", 1);
  g.padding = c.integer("padding", 0);
  g.dilation = c.integer("dilation", 1);
  g.groups = c.integer("groups", 1);

  const int64_t rows = g.column_rows(), pixels = g.out_pixels();
  const auto budget_columns = static_cast<int64_t>(max_column_bytes / (sizeof(double) * rows));
  const int64_t chunk = std::clamp<int64_t>(budget_columns, 1, pixels);
  auto columns = DeviceBuffer<double>::on_stream(static_cast<size_t>(rows * chunk), c.stream);
  const int64_t group_out = g.group_out_channels();
  for (int64_t image = 0; image < g.batch; ++image) {
    for (int64_t first = 0; first < pixels; first += chunk) {
      const int64_t count = std::min(chunk, pixels - first);
      for (int64_t group = 0; group < g.groups; ++group) {
        im2col_f64(c.input(0), columns.get(), g, image, group, first, count, c.stream);
        reference::RowMajorGemm gemm;
        gemm.m = group_out, gemm.n = count, gemm.k = rows;
        gemm.a = c.input(1) + group * group_out * rows, gemm.lda = rows;
        gemm.b = columns.get(), gemm.ldb = count;
        gemm.c = c.output() + (image * g.out_channels + group * group_out) * pixels + first;
        gemm.ldc = pixels;
        reference::gemm_f64(c.context, gemm);
      }
    }
  }
  if (c.input(2) != nullptr) {
    reference::add_channel_bias_f64(c.output(), c.input(2), g.batch, g.out_channels, pixels, c.stream);
  }
}

}  // namespace

void device_reference(const ReferenceCall& call) { conv2d_chunked(call, kConvColumnBudgetBytes); }

void conv2d_f64_device(const OpArgs<double>& args, const cuda::ReferenceContext& context,
                       size_t max_column_bytes) {
  const Op& op = *find_op(Definition::name);
  const ReferenceCall call = make_reference_call(op, args, context);
  conv2d_chunked(call, max_column_bytes);
}

}  // namespace kbv::ops::conv2d
