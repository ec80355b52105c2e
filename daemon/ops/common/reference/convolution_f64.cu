// daemon/ops/common/reference/convolution_f64.cu — the convolutions' CUDA fp64 reference: im2col over
// output positions in chunks (kbv's kernel), each chunk followed by one cuBLAS Dgemm per group,
// then the bias. A transposed convolution is the same GEMM over columns that gather, for each
// output position and tap, the input position that scatters into it (none where the stride
// skips it), with its weight regrouped once to [groups][O/groups][C/groups·taps].
#include "ops/common/reference/convolution_f64.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/launch.cuh"
#include "ops/common/convolution.hpp"
#include "ops/common/reference/channel_bias_f64.hpp"
#include "ops/common/reference/gemm_f64.hpp"
#include "ops/registry.hpp"

namespace kbv::ops::reference {
namespace {

using cuda::DeviceBuffer;
using cuda::detail::kBlockThreads;

// What the im2col kernel reads of a ConvolutionGeometry (plain arrays: device code), depth,
// height, width.
struct ColumnGeometry {
  int64_t in_channels = 0, group_in_channels = 0;
  int64_t input[kMaxSpatialRank], kernel[kMaxSpatialRank], output[kMaxSpatialRank];
  int64_t stride[kMaxSpatialRank], padding[kMaxSpatialRank], dilation[kMaxSpatialRank];
};

ColumnGeometry column_geometry(const ConvolutionGeometry& g) {
  ColumnGeometry c;
  c.in_channels = g.in_channels;
  c.group_in_channels = g.group_in_channels();
  for (int axis = 0; axis < kMaxSpatialRank; ++axis) {
    const ConvolutionAxis& a = g.axes[static_cast<size_t>(axis)];
    c.input[axis] = a.input, c.kernel[axis] = a.kernel, c.output[axis] = a.output;
    c.stride[axis] = a.stride, c.padding[axis] = a.padding, c.dilation[axis] = a.dilation;
  }
  return c;
}

// The input position that output position `out` reads along one axis, for a tap whose offset is
// tap·dilation − padding; false when there is none (the zero padding, or a position a transposed
// convolution's stride skips). A convolution reads out·stride + offset; a transposed one is
// written at in·stride + offset, so it reads (out − offset)/stride when that is a whole number.
template <bool Transposed, class Index>
__device__ bool source_position(Index out, int64_t offset, int64_t stride, int64_t extent, int64_t& in) {
  if (!Transposed) {
    in = static_cast<int64_t>(out) * stride + offset;
    return in >= 0 && in < extent;
  }
  const int64_t shifted = static_cast<int64_t>(out) - offset;
  if (shifted < 0) return false;
  if (stride == 1) {
    in = shifted;
  } else {
    const Index quotient = static_cast<Index>(shifted) / static_cast<Index>(stride);
    if (static_cast<int64_t>(quotient) * stride != shifted) return false;
    in = quotient;
  }
  return in < extent;
}

// One block row (blockIdx.y, striding by gridDim.y) per column-matrix row r = (channel, kd, kh,
// kw), decomposed once; threads stride over that row's output positions with 32-bit divisions
// where the indices fit (`Index`: with 64-bit divisions, six per element, this kernel rather than
// cuBLAS's Dgemm was the cost of an fp64 conv2d reference, ~60 ms per 616-GFLOP KernelBench
// conv2d on an H200).
template <bool Transposed, class Index>
__global__ void im2col_kernel(const double* x, double* columns, ColumnGeometry g, int64_t image, int64_t group,
                              int64_t first_column, int64_t column_count, int64_t rows) {
  const Index out_w = static_cast<Index>(g.output[2]);
  const Index out_hw = static_cast<Index>(g.output[1] * g.output[2]);
  const int64_t taps = g.kernel[0] * g.kernel[1] * g.kernel[2];
  const int64_t in_pixels = g.input[0] * g.input[1] * g.input[2];
  for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const int64_t tap_w = row % g.kernel[2];
    const int64_t tap_h = (row / g.kernel[2]) % g.kernel[1];
    const int64_t tap_d = (row / (g.kernel[2] * g.kernel[1])) % g.kernel[0];
    const int64_t channel = group * g.group_in_channels + row / taps;
    const double* plane = x + (image * g.in_channels + channel) * in_pixels;
    const int64_t offset_d = tap_d * g.dilation[0] - g.padding[0];
    const int64_t offset_h = tap_h * g.dilation[1] - g.padding[1];
    const int64_t offset_w = tap_w * g.dilation[2] - g.padding[2];
    double* out_row = columns + row * column_count;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < column_count;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
      const Index pixel = static_cast<Index>(first_column + i);
      const Index od = pixel / out_hw;
      const Index rest = pixel - od * out_hw;
      const Index oh = rest / out_w;
      const Index ow = rest - oh * out_w;
      int64_t id = 0, ih = 0, iw = 0;
      const bool inside = source_position<Transposed>(od, offset_d, g.stride[0], g.input[0], id) &&
                          source_position<Transposed>(oh, offset_h, g.stride[1], g.input[1], ih) &&
                          source_position<Transposed>(ow, offset_w, g.stride[2], g.input[2], iw);
      out_row[i] = inside ? plane[(id * g.input[1] + ih) * g.input[2] + iw] : 0.0;
    }
  }
}

template <bool Transposed>
void launch_im2col(const dim3& grid, const double* x, double* columns, const ConvolutionGeometry& geometry,
                   int64_t image, int64_t group, int64_t first_column, int64_t column_count, int64_t rows,
                   cudaStream_t stream) {
  const ColumnGeometry g = column_geometry(geometry);
  // 32-bit indices when every output position, and every position shifted by a padding, fits.
  int64_t largest_padding = 0;
  for (const ConvolutionAxis& axis : geometry.axes) largest_padding = std::max(largest_padding, axis.padding);
  if (geometry.output_pixels() + largest_padding <= static_cast<int64_t>(UINT32_MAX))
    im2col_kernel<Transposed, uint32_t>
        <<<grid, kBlockThreads, 0, stream>>>(x, columns, g, image, group, first_column, column_count, rows);
  else
    im2col_kernel<Transposed, uint64_t>
        <<<grid, kBlockThreads, 0, stream>>>(x, columns, g, image, group, first_column, column_count, rows);
  cuda::check_launch("im2col_kernel");
}

// columns[r * column_count + (p - first_column)] for r < rows (channel, kd, kh, kw of group
// `group`) and output positions p in [first_column, first_column + column_count): the input
// element row r reads for output position p of image `image`, 0 where there is none.
void im2col_f64(const double* x, double* columns, const ConvolutionGeometry& geometry, int64_t image, int64_t group,
                int64_t first_column, int64_t column_count, cudaStream_t stream) {
  const int64_t rows = geometry.group_in_channels() * geometry.kernel_taps();
  if (rows <= 0 || column_count <= 0) return;
  constexpr int64_t kMaxGridY = 65535;      // CUDA's limit on gridDim.y
  constexpr int64_t kTargetBlocks = 65536;  // enough to fill any current GPU many times over
  const int64_t grid_y = std::min(rows, kMaxGridY);
  const int64_t pixel_blocks = (column_count + kBlockThreads - 1) / kBlockThreads;
  const int64_t grid_x = std::clamp<int64_t>(pixel_blocks, 1, std::max<int64_t>(1, kTargetBlocks / grid_y));
  const dim3 grid(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y));
  if (geometry.form.transposed)
    launch_im2col<true>(grid, x, columns, geometry, image, group, first_column, column_count, rows, stream);
  else
    launch_im2col<false>(grid, x, columns, geometry, image, group, first_column, column_count, rows, stream);
}

// grouped[((g·group_out + o)·group_in + c)·taps + k] = weight[((g·group_in + c)·group_out + o)·taps + k]:
// a transposed convolution's weight [C, O/groups, *K] as one [O/groups, C/groups·taps] matrix per
// group, the layout its GEMM reads.
__global__ void group_transposed_filters_kernel(const double* weight, double* grouped, int64_t groups,
                                                int64_t group_in, int64_t group_out, int64_t taps) {
  const int64_t total = groups * group_out * group_in * taps;
  for (int64_t i = cuda::detail::global_thread_index(); i < total; i += cuda::detail::grid_stride()) {
    const int64_t k = i % taps;
    const int64_t c = (i / taps) % group_in;
    const int64_t o = (i / (taps * group_in)) % group_out;
    const int64_t g = i / (taps * group_in * group_out);
    grouped[i] = weight[((g * group_in + c) * group_out + o) * taps + k];
  }
}

}  // namespace

int64_t images_per_gemm(const ConvolutionGeometry& geometry, size_t max_column_bytes, int64_t max_images_per_gemm) {
  const int64_t rows = geometry.group_in_channels() * geometry.kernel_taps(), pixels = geometry.output_pixels();
  const auto budget_columns = static_cast<int64_t>(max_column_bytes / (sizeof(double) * rows));
  // Several images share a GEMM (their columns one after the other, one filter matrix) only where
  // a chunk is a whole image.
  if (budget_columns < pixels) return 1;
  return std::clamp<int64_t>(budget_columns / pixels, 1, std::min(geometry.batch, max_images_per_gemm));
}

// im2col in chunks of output positions, each followed by one GEMM per group:
//   y[n, group's channels, chunk] = filters[group] [O/groups, Kc] · columns [Kc, chunk],
// batched over images where a chunk is a whole image (max_images_per_gemm, kConvImagesPerGemm).
void convolution_f64(const ReferenceCall& call, size_t max_column_bytes, int64_t max_images_per_gemm) {
  const std::optional<ConvolutionForm> form = convolution_form_of(call.op);
  if (!form) throw OpError(std::string(call.name()) + " (device reference): not a convolution");
  if (max_images_per_gemm < 1)
    throw OpError(std::string(call.name()) + " (device reference): images per GEMM must be at least 1, not " + std::to_string(max_images_per_gemm));
  const ConvolutionGeometry g = convolution_geometry(call.name(), *form, call.args.input_shapes, call.attrs);
  const int64_t rows = g.group_in_channels() * g.kernel_taps(), pixels = g.output_pixels();
  const int64_t group_out = g.group_out_channels();
  const auto budget_columns = static_cast<int64_t>(max_column_bytes / (sizeof(double) * rows));
  const int64_t chunk = std::clamp<int64_t>(budget_columns, 1, pixels);
  const int64_t images_a_gemm = images_per_gemm(g, max_column_bytes, max_images_per_gemm);
  auto columns = DeviceBuffer<double>::on_stream(static_cast<size_t>(rows * chunk * images_a_gemm), call.stream);

  const double* filters = call.input(1);
  DeviceBuffer<double> grouped_filters;
  if (g.form.transposed) {
    const auto count = static_cast<size_t>(g.groups * group_out * rows);
    grouped_filters = DeviceBuffer<double>::on_stream(count, call.stream);
    group_transposed_filters_kernel<<<cuda::detail::grid_for(static_cast<int64_t>(count)), kBlockThreads, 0,
                                      call.stream>>>(call.input(1), grouped_filters.get(), g.groups,
                                                     g.group_in_channels(), group_out, g.kernel_taps());
    cuda::check_launch("group_transposed_filters_kernel");
    filters = grouped_filters.get();
  }

  for (int64_t image = 0; image < g.batch; image += images_a_gemm) {
    const int64_t images = std::min(images_a_gemm, g.batch - image);
    for (int64_t first = 0; first < pixels; first += chunk) {
      const int64_t count = std::min(chunk, pixels - first);
      for (int64_t group = 0; group < g.groups; ++group) {
        for (int64_t j = 0; j < images; ++j)
          im2col_f64(call.input(0), columns.get() + j * rows * count, g, image + j, group, first, count, call.stream);
        RowMajorGemm gemm;
        gemm.m = group_out, gemm.n = count, gemm.k = rows;
        gemm.a = filters + group * group_out * rows, gemm.lda = rows, gemm.stride_a = 0;
        gemm.b = columns.get(), gemm.ldb = count, gemm.stride_b = rows * count;
        gemm.c = call.output() + (image * g.out_channels + group * group_out) * pixels + first;
        gemm.ldc = pixels, gemm.stride_c = g.out_channels * pixels;
        gemm.batch = images;
        gemm_f64(call.context, gemm);
      }
    }
  }
  if (call.input(2) != nullptr)
    add_channel_bias_f64(call.output(), call.input(2), g.batch, g.out_channels, pixels, call.stream);
}

void convolution_f64_device(std::string_view op, const OpArgs<double>& args, const cuda::ReferenceContext& context,
                            size_t max_column_bytes, int64_t max_images_per_gemm) {
  const Op* found = find_op(op);
  if (found == nullptr) throw OpError(std::string(op) + " (device reference): no op of that name");
  convolution_f64(make_reference_call(*found, args, context), max_column_bytes, max_images_per_gemm);
}

}  // namespace kbv::ops::reference
