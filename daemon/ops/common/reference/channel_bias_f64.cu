// daemon/ops/common/reference/channel_bias_f64.cu — fp64 channel-bias addition, one grid-stride
// kernel.
#include "ops/common/reference/channel_bias_f64.hpp"

#include "common/cuda_error.hpp"
#include "data/launch.cuh"

namespace kbv::ops::reference {
namespace {

__global__ void channel_bias_kernel(double* y, const double* bias, int64_t channels,
                                    int64_t inner, int64_t n) {
  for (int64_t i = cuda::detail::global_thread_index(); i < n; i += cuda::detail::grid_stride()) {
    y[i] += bias[(i / inner) % channels];
  }
}

}  // namespace

void add_channel_bias_f64(double* y, const double* bias, int64_t outer, int64_t channels,
                          int64_t inner, cudaStream_t stream) {
  const int64_t n = outer * channels * inner;
  if (n <= 0) return;
  channel_bias_kernel<<<cuda::detail::grid_for(n), cuda::detail::kBlockThreads, 0, stream>>>(
      y, bias, channels, inner, n);
  cuda::check_launch("channel_bias_kernel");
}

}  // namespace kbv::ops::reference
