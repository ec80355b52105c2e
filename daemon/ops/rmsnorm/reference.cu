// daemon/ops/rmsnorm/reference.cu — rmsnorm's CUDA fp64 reference: the sum of squares along the
// axis, then x / rms, one thread per column when the inner extent is wide, one block per line when
// it is narrow (ops/common/reference/axis_f64.cuh).
#include <cmath>

#include "common/cuda_error.hpp"
#include "ops/common/reference/axis_f64.cuh"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::rmsnorm {
namespace {

using cuda::detail::global_thread_index;
using cuda::detail::grid_stride;
using reference::Line;

__global__ void rmsnorm_columns(const double* x, double* y, int64_t lines, int64_t axis_len,
                                int64_t inner, double eps) {
  for (int64_t c = global_thread_index(); c < lines; c += grid_stride()) {
    const Line line(c, axis_len, inner);
    double squares = 0.0;
    for (int64_t j = 0; j < axis_len; ++j) squares += x[line.at(j)] * x[line.at(j)];
    const double rms = sqrt(squares / static_cast<double>(axis_len) + eps);
    for (int64_t j = 0; j < axis_len; ++j) y[line.at(j)] = x[line.at(j)] / rms;
  }
}

__global__ void rmsnorm_lines(const double* x, double* y, int64_t lines, int64_t axis_len,
                              int64_t inner, double eps) {
  for (int64_t l = blockIdx.x; l < lines; l += gridDim.x) {
    const Line line(l, axis_len, inner);
    double squares = 0.0;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) {
      squares += x[line.at(j)] * x[line.at(j)];
    }
    squares = reference::block_sum(squares);
    const double rms = sqrt(squares / static_cast<double>(axis_len) + eps);
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) y[line.at(j)] = x[line.at(j)] / rms;
  }
}

}  // namespace

void device_reference(const ReferenceCall& call) {
  using cuda::detail::grid_for;
  using cuda::detail::kBlockThreads;
  const op_support::AxisSplit s = call.split_at("axis");
  const double eps = call.real("eps");
  const int64_t lines = s.outer * s.inner;
  if (lines <= 0 || s.extent <= 0) return;
  if (reference::use_columns(s.inner)) {
    rmsnorm_columns<<<grid_for(lines), kBlockThreads, 0, call.stream>>>(
        call.input(0), call.output(), lines, s.extent, s.inner, eps);
  } else {
    rmsnorm_lines<<<grid_for(lines, 1), kBlockThreads, 0, call.stream>>>(
        call.input(0), call.output(), lines, s.extent, s.inner, eps);
  }
  cuda::check_launch("rmsnorm kernel");
}

}  // namespace kbv::ops::rmsnorm
