// daemon/ops/common/reference/arg_reduce_f64.cu — fp64 argmax and argmin: one thread per line,
// walking it in order so the first extreme (or the first NaN) is kept.
#include "ops/common/reference/arg_reduce_f64.hpp"

#include "common/cuda_error.hpp"
#include "ops/common/reference/axis_f64.cuh"

namespace kbv::ops::reference {
namespace {

using cuda::detail::global_thread_index;
using cuda::detail::grid_stride;

__global__ void arg_extreme_lines(bool max, const double* x, double* y, int64_t lines, int64_t axis_len,
                                  int64_t inner) {
  for (int64_t l = global_thread_index(); l < lines; l += grid_stride()) {
    const Line line(l, axis_len, inner);
    double best = x[line.at(0)];
    int64_t position = 0;
    for (int64_t j = 1; j < axis_len && best == best; ++j) {  // stops at the first NaN
      const double value = x[line.at(j)];
      if (value != value || (max ? value > best : value < best)) {
        best = value;
        position = j;
      }
    }
    y[l] = static_cast<double>(position);
  }
}

}  // namespace

void arg_extreme_f64(bool max, const double* x, double* y, int64_t outer, int64_t axis_len, int64_t inner,
                     cudaStream_t stream) {
  const int64_t lines = outer * inner;
  if (lines <= 0 || axis_len <= 0) return;
  arg_extreme_lines<<<cuda::detail::grid_for(lines), cuda::detail::kBlockThreads, 0, stream>>>(max, x, y, lines,
                                                                                              axis_len, inner);
  cuda::check_launch("argmax/argmin kernel (fp64 reference)");
}

}  // namespace kbv::ops::reference
