// daemon/ops/common/reference/scan_f64.cu — fp64 cumsum and cumprod: one thread per line, walking
// it in order (sequential in fp64: error ≈ √n·1e-16, far below what the comparison resolves).
#include "ops/common/reference/scan_f64.hpp"

#include "common/cuda_error.hpp"
#include "ops/common/reference/axis_f64.cuh"

namespace kbv::ops::reference {
namespace {

using cuda::detail::global_thread_index;
using cuda::detail::grid_stride;

__global__ void scan_lines(bool product, bool reverse, bool exclusive, const double* x, double* y, int64_t lines,
                           int64_t axis_len, int64_t inner) {
  for (int64_t l = global_thread_index(); l < lines; l += grid_stride()) {
    const Line line(l, axis_len, inner);
    double running = product ? 1.0 : 0.0;
    for (int64_t k = 0; k < axis_len; ++k) {
      const int64_t at = line.at(reverse ? axis_len - 1 - k : k);
      const double value = x[at];
      if (exclusive) y[at] = running;
      running = product ? running * value : running + value;
      if (!exclusive) y[at] = running;
    }
  }
}

}  // namespace

void scan_f64(bool product, bool reverse, bool exclusive, const double* x, double* y, int64_t outer,
              int64_t axis_len, int64_t inner, cudaStream_t stream) {
  const int64_t lines = outer * inner;
  if (lines <= 0 || axis_len <= 0) return;
  scan_lines<<<cuda::detail::grid_for(lines), cuda::detail::kBlockThreads, 0, stream>>>(
      product, reverse, exclusive, x, y, lines, axis_len, inner);
  cuda::check_launch("cumsum/cumprod kernel (fp64 reference)");
}

}  // namespace kbv::ops::reference
