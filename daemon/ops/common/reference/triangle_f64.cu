// daemon/ops/common/reference/triangle_f64.cu — fp64 tril and triu: a grid-stride masked copy.
#include "ops/common/reference/triangle_f64.hpp"

#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "ops/common/triangle.hpp"

namespace kbv::ops::reference {
namespace {

__global__ void triangle_kernel(bool lower, int64_t diagonal, double fill, const double* x, double* y, int64_t count,
                                int64_t rows, int64_t columns) {
  for (int64_t i = cuda::detail::global_thread_index(); i < count; i += cuda::detail::grid_stride())
    y[i] = triangle_keeps(lower, (i / columns) % rows, i % columns, diagonal) ? x[i] : fill;
}

}  // namespace

void triangle_f64(bool lower, int64_t diagonal, double fill, const double* x, double* y, int64_t count, int64_t rows,
                  int64_t columns, cudaStream_t stream) {
  if (count <= 0) return;
  triangle_kernel<<<cuda::detail::grid_for(count), cuda::detail::kBlockThreads, 0, stream>>>(lower, diagonal, fill, x, y,
                                                                                            count, rows, columns);
  cuda::check_launch("tril/triu kernel (fp64 reference)");
}

}  // namespace kbv::ops::reference
