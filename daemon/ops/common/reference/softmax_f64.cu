// daemon/ops/common/reference/softmax_f64.cu — fp64 softmax and log_softmax: max, sum of
// exp(x − max), then divide (or subtract the log), one thread per column when the inner extent is
// wide, one block per line when it is narrow (ops/common/reference/axis_f64.cuh).
#include "ops/common/reference/softmax_f64.hpp"

#include <cmath>

#include "common/cuda_error.hpp"
#include "ops/common/reference/axis_f64.cuh"

namespace kbv::ops::reference {
namespace {

using cuda::detail::global_thread_index;
using cuda::detail::grid_stride;

// The output of element x given the line's max and Σ exp(x − max).
__device__ double normalised(bool log_form, double x, double peak, double total) {
  return log_form ? x - peak - ::log(total) : ::exp(x - peak) / total;
}

__global__ void softmax_columns(bool log_form, const double* x, double* y, int64_t lines, int64_t axis_len,
                                int64_t inner) {
  for (int64_t c = global_thread_index(); c < lines; c += grid_stride()) {
    const Line line(c, axis_len, inner);
    double peak = -INFINITY;
    for (int64_t j = 0; j < axis_len; ++j) peak = fmax(peak, x[line.at(j)]);
    double total = 0.0;
    for (int64_t j = 0; j < axis_len; ++j) total += ::exp(x[line.at(j)] - peak);
    for (int64_t j = 0; j < axis_len; ++j) y[line.at(j)] = normalised(log_form, x[line.at(j)], peak, total);
  }
}

__global__ void softmax_lines(bool log_form, const double* x, double* y, int64_t lines, int64_t axis_len,
                              int64_t inner) {
  for (int64_t l = blockIdx.x; l < lines; l += gridDim.x) {
    const Line line(l, axis_len, inner);
    double peak = -INFINITY;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) peak = fmax(peak, x[line.at(j)]);
    peak = block_max(peak);
    double total = 0.0;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) total += ::exp(x[line.at(j)] - peak);
    total = block_sum(total);
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x)
      y[line.at(j)] = normalised(log_form, x[line.at(j)], peak, total);
  }
}

}  // namespace

void softmax_f64(bool log_form, const double* x, double* y, int64_t outer, int64_t axis_len, int64_t inner,
                 cudaStream_t stream) {
  using cuda::detail::grid_for;
  using cuda::detail::kBlockThreads;
  const int64_t lines = outer * inner;
  if (lines <= 0 || axis_len <= 0) return;
  if (use_columns(inner)) {
    softmax_columns<<<grid_for(lines), kBlockThreads, 0, stream>>>(log_form, x, y, lines, axis_len, inner);
  } else {
    softmax_lines<<<grid_for(lines, 1), kBlockThreads, 0, stream>>>(log_form, x, y, lines, axis_len, inner);
  }
  cuda::check_launch(log_form ? "log_softmax kernel (fp64 reference)" : "softmax kernel (fp64 reference)");
}

}  // namespace kbv::ops::reference
