// daemon/ops/softmax/reference.cu — softmax's CUDA fp64 reference: max, sum of exp(x − max),
// divide, one thread per column when the inner extent is wide, one block per line when it is narrow
// (ops/common/reference/axis_f64.cuh).
#include <cmath>

#include "common/cuda_error.hpp"
#include "ops/common/reference/axis_f64.cuh"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::softmax {
namespace {

using cuda::detail::global_thread_index;
using cuda::detail::grid_stride;
using reference::Line;

__global__ void softmax_columns(const double* x, double* y, int64_t lines, int64_t axis_len,
                                int64_t inner) {
  for (int64_t c = global_thread_index(); c < lines; c += grid_stride()) {
    const Line line(c, axis_len, inner);
    double peak = -INFINITY;
    for (int64_t j = 0; j < axis_len; ++j) peak = fmax(peak, x[line.at(j)]);
    double total = 0.0;
    for (int64_t j = 0; j < axis_len; ++j) total += exp(x[line.at(j)] - peak);
    for (int64_t j = 0; j < axis_len; ++j) y[line.at(j)] = exp(x[line.at(j)] - peak) / total;
  }
}

__global__ void softmax_lines(const double* x, double* y, int64_t lines, int64_t axis_len,
                              int64_t inner) {
  for (int64_t l = blockIdx.x; l < lines; l += gridDim.x) {
    const Line line(l, axis_len, inner);
    double peak = -INFINITY;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) peak = fmax(peak, x[line.at(j)]);
    peak = reference::block_max(peak);
    double total = 0.0;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) total += exp(x[line.at(j)] - peak);
    total = reference::block_sum(total);
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) {
      y[line.at(j)] = exp(x[line.at(j)] - peak) / total;
    }
  }
}

}  // namespace

void device_reference(const ReferenceCall& call) {
  using cuda::detail::grid_for;
  using cuda::detail::kBlockThreads;
  const op_support::AxisSplit s = call.split_at("axis");
  const int64_t lines = s.outer * s.inner;
  if (lines <= 0 || s.extent <= 0) return;
  if (reference::use_columns(s.inner)) {
    softmax_columns<<<grid_for(lines), kBlockThreads, 0, call.stream>>>(call.input(0), call.output(),
                                                                        lines, s.extent, s.inner);
  } else {
    softmax_lines<<<grid_for(lines, 1), kBlockThreads, 0, call.stream>>>(call.input(0), call.output(),
                                                                         lines, s.extent, s.inner);
  }
  cuda::check_launch("softmax kernel");
}

}  // namespace kbv::ops::softmax
