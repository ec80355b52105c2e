// daemon/ops/layernorm/reference.cu — layernorm's CUDA fp64 reference: each row cut into chunks
// a block apiece (KernelBench's shape is 16 rows of 4·10⁶ elements: one block per row kept 16 of
// the GPU's SMs busy), a two-pass variance (no cancellation when |mean| ≫ stddev), then the
// affine part. Every sum is taken in a fixed order: deterministic.
#include <algorithm>
#include <cmath>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "ops/common/reference/axis_f64.cuh"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::layernorm {
namespace {

// Elements of a row per block: 16 per thread of a 256-thread block, enough work to hide a
// block's start, small enough that KernelBench's 4·10⁶-element rows give 1024 blocks in all.
constexpr int64_t kChunkElements = 16 * cuda::detail::kBlockThreads;

struct Rows {
  int64_t count, length, chunks;  // chunks per row
};

// The row's sum of `partials` (one per chunk), the same value in every block of the row: each
// block reduces the row's partials in the same order.
__device__ double row_total(const double* partials, const Rows& rows, int64_t row) {
  double local = 0.0;
  for (int64_t c = threadIdx.x; c < rows.chunks; c += blockDim.x) local += partials[row * rows.chunks + c];
  return reference::block_sum(local);
}

// Block (chunk, row) sums its chunk of x, or of (x − mean)² once `sums` (each row's chunk sums of
// x) is given: the two passes of the variance.
__global__ void chunk_sums(const double* x, Rows rows, const double* sums, double* partials) {
  const int64_t row = blockIdx.y;
  const int64_t chunk = blockIdx.x;
  const double* in = x + row * rows.length;
  const int64_t end = (chunk + 1) * kChunkElements < rows.length ? (chunk + 1) * kChunkElements : rows.length;
  const double mean = sums != nullptr ? row_total(sums, rows, row) / static_cast<double>(rows.length) : 0.0;
  double local = 0.0;
  for (int64_t j = chunk * kChunkElements + threadIdx.x; j < end; j += blockDim.x) {
    if (sums != nullptr) local += (in[j] - mean) * (in[j] - mean);
    else local += in[j];
  }
  const double total = reference::block_sum(local);
  if (threadIdx.x == 0) partials[row * rows.chunks + chunk] = total;
}

// Each element of block (chunk, row)'s chunk normalised to zero mean and unit (biased) variance,
// then multiplied by weight[j] and shifted by bias[j] (either may be null).
__global__ void normalize_chunks(const double* x, const double* weight, const double* bias, double* y, Rows rows, const double* sums,
                                 const double* squares, double eps) {
  const int64_t row = blockIdx.y;
  const int64_t chunk = blockIdx.x;
  const double length = static_cast<double>(rows.length);
  const double mean = row_total(sums, rows, row) / length;
  const double variance = row_total(squares, rows, row) / length;
  const double rstd = 1.0 / sqrt(variance + eps);  // as the host op: multiply by 1/σ
  const double* in = x + row * rows.length;
  double* out = y + row * rows.length;
  const int64_t end = (chunk + 1) * kChunkElements < rows.length ? (chunk + 1) * kChunkElements : rows.length;
  for (int64_t j = chunk * kChunkElements + threadIdx.x; j < end; j += blockDim.x) {
    double value = (in[j] - mean) * rstd;
    if (weight != nullptr) value *= weight[j];
    if (bias != nullptr) value += bias[j];
    out[j] = value;
  }
}

}  // namespace

void device_reference(const ReferenceCall& call) {
  const Shape& x = call.shape(0);
  const auto rank = static_cast<std::ptrdiff_t>(call.integer("normalized_rank", 1));
  const int64_t row_len = numel(Shape(x.end() - rank, x.end()));
  const int64_t row_count = numel(x) / row_len;
  if (row_count <= 0 || row_len <= 0) return;
  const Rows rows{row_count, row_len, (row_len + kChunkElements - 1) / kChunkElements};
  // Rows beyond the grid's y limit (65535) are taken this many at a time.
  constexpr int64_t kRowsPerLaunch = 65535;
  const auto partials = cuda::DeviceBuffer<double>::on_stream(static_cast<size_t>(2 * row_count * rows.chunks), call.stream);
  for (int64_t first = 0; first < row_count; first += kRowsPerLaunch) {
    const int64_t now = std::min(kRowsPerLaunch, row_count - first);
    const Rows part{now, row_len, rows.chunks};
    double* sums = partials.get() + 2 * first * rows.chunks;
    double* squares = sums + now * rows.chunks;
    const double* in = call.input(0) + first * row_len;
    const dim3 grid(static_cast<unsigned>(rows.chunks), static_cast<unsigned>(now));
    chunk_sums<<<grid, cuda::detail::kBlockThreads, 0, call.stream>>>(in, part, nullptr, sums);
    cuda::check_launch("layernorm chunk sums");
    chunk_sums<<<grid, cuda::detail::kBlockThreads, 0, call.stream>>>(in, part, sums, squares);
    cuda::check_launch("layernorm chunk squares");
    normalize_chunks<<<grid, cuda::detail::kBlockThreads, 0, call.stream>>>(in, call.input(1), call.input(2), call.output() + first * row_len,
                                                                         part, sums, squares, call.real("eps"));
    cuda::check_launch("layernorm normalize");
  }
}

}  // namespace kbv::ops::layernorm
