// daemon/ops/common/reference/axis_reduce_f64.cu — fp64 sum and mean along one axis: one thread per
// column when the inner extent is wide, one block per line when it is narrow.
#include "ops/common/reference/axis_reduce_f64.hpp"

#include "common/cuda_error.hpp"
#include "ops/common/reference/axis_f64.cuh"

namespace kbv::ops::reference {
namespace {

using cuda::detail::global_thread_index;
using cuda::detail::grid_stride;

__global__ void reduce_columns(bool mean, const double* x, double* y, int64_t lines,
                               int64_t axis_len, int64_t inner) {
  for (int64_t c = global_thread_index(); c < lines; c += grid_stride()) {
    const Line line(c, axis_len, inner);
    double total = 0.0;
    for (int64_t j = 0; j < axis_len; ++j) total += x[line.at(j)];
    y[c] = mean ? total / static_cast<double>(axis_len) : total;
  }
}

__global__ void reduce_lines(bool mean, const double* x, double* y, int64_t lines,
                             int64_t axis_len, int64_t inner) {
  for (int64_t l = blockIdx.x; l < lines; l += gridDim.x) {
    const Line line(l, axis_len, inner);
    double total = 0.0;
    for (int64_t j = threadIdx.x; j < axis_len; j += blockDim.x) total += x[line.at(j)];
    total = block_sum(total);
    if (threadIdx.x == 0) y[l] = mean ? total / static_cast<double>(axis_len) : total;
  }
}

}  // namespace

void reduce_axis_f64(bool mean, const double* x, double* y, int64_t outer, int64_t axis_len,
                     int64_t inner, cudaStream_t stream) {
  using cuda::detail::grid_for;
  using cuda::detail::kBlockThreads;
  const int64_t lines = outer * inner;
  if (lines <= 0) return;
  if (use_columns(inner)) {
    reduce_columns<<<grid_for(lines), kBlockThreads, 0, stream>>>(mean, x, y, lines, axis_len, inner);
  } else {
    reduce_lines<<<grid_for(lines, 1), kBlockThreads, 0, stream>>>(mean, x, y, lines, axis_len, inner);
  }
  cuda::check_launch("sum/mean kernel");
}

}  // namespace kbv::ops::reference
