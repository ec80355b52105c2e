// daemon/ops/common/reference/pool_f64.cu — the pooling ops' fp64 device reference: a
// grid-stride kernel, one thread per output, the window walked by pooled_value.
#include "ops/common/reference/pool_f64.hpp"

#include "common/cuda_error.hpp"
#include "data/launch.cuh"

namespace kbv::ops::reference {
namespace {

using pooling::PoolGeometry;
using pooling::PoolKind;

template <PoolKind Kind>
__global__ void pool_kernel(PoolGeometry g, const double* x, double* y) {
  const int64_t total = g.outputs();
  for (int64_t index = cuda::detail::global_thread_index(); index < total;
       index += cuda::detail::grid_stride())
    y[index] = pooling::pooled_value<Kind>(g, x, index);
}

}  // namespace

void pool_f64(const PoolGeometry& g, const double* x, double* y, cudaStream_t stream) {
  const int64_t total = g.outputs();
  if (total <= 0) return;
  const unsigned blocks = cuda::detail::grid_for(total);
  constexpr int threads = cuda::detail::kBlockThreads;
  switch (g.kind) {
    case PoolKind::max: pool_kernel<PoolKind::max><<<blocks, threads, 0, stream>>>(g, x, y); break;
    case PoolKind::average: pool_kernel<PoolKind::average><<<blocks, threads, 0, stream>>>(g, x, y); break;
    case PoolKind::adaptive_average:
      pool_kernel<PoolKind::adaptive_average><<<blocks, threads, 0, stream>>>(g, x, y);
      break;
  }
  cuda::check_launch("pooling reference kernel");
}

}  // namespace kbv::ops::reference
