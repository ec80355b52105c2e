// daemon/ops/layernorm/reference.cu — layernorm's CUDA fp64 reference: one block per row, a
// two-pass variance (no cancellation when |mean| ≫ stddev), then the affine part.
#include <cmath>

#include "common/cuda_error.hpp"
#include "ops/common/reference/axis_f64.cuh"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::layernorm {
namespace {

// Each of `rows` rows of `row_len` elements normalised to zero mean and unit (biased) variance,
// then multiplied by weight[j] and shifted by bias[j] (either may be null).
__global__ void layernorm_rows(const double* x, const double* weight, const double* bias,
                               double* y, int64_t rows, int64_t row_len, double eps) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const double* in = x + r * row_len;
    double* out = y + r * row_len;
    double total = 0.0;
    for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) total += in[j];
    const double mean = reference::block_sum(total) / static_cast<double>(row_len);
    double squares = 0.0;  // two-pass variance: no cancellation when |mean| ≫ stddev
    for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) {
      squares += (in[j] - mean) * (in[j] - mean);
    }
    const double variance = reference::block_sum(squares) / static_cast<double>(row_len);
    const double rstd = 1.0 / sqrt(variance + eps);  // as the host op: multiply by 1/σ
    for (int64_t j = threadIdx.x; j < row_len; j += blockDim.x) {
      double value = (in[j] - mean) * rstd;
      if (weight != nullptr) value *= weight[j];
      if (bias != nullptr) value += bias[j];
      out[j] = value;
    }
  }
}

}  // namespace

void device_reference(const ReferenceCall& call) {
  const Shape& x = call.shape(0);
  const auto rank = static_cast<std::ptrdiff_t>(call.integer("normalized_rank", 1));
  const int64_t row_len = numel(Shape(x.end() - rank, x.end()));
  const int64_t rows = numel(x) / row_len;
  if (rows <= 0 || row_len <= 0) return;
  layernorm_rows<<<cuda::detail::grid_for(rows, 1), cuda::detail::kBlockThreads, 0, call.stream>>>(
      call.input(0), call.input(1), call.input(2), call.output(), rows, row_len, call.real("eps"));
  cuda::check_launch("layernorm kernel");
}

}  // namespace kbv::ops::layernorm
