// data/elementwise_f64.cu — fp64 channel-bias addition for the linear and conv2d references.
#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "data/reference_kernels.hpp"

namespace kbv::cuda::ref {
namespace {

__global__ void channel_bias_kernel(double* y, const double* bias, int64_t channels,
                                    int64_t inner, int64_t n) {
  for (int64_t i = detail::global_thread_index(); i < n; i += detail::grid_stride()) {
    y[i] += bias[(i / inner) % channels];
  }
}

}  // namespace

void add_channel_bias_f64(double* y, const double* bias, int64_t outer, int64_t channels,
                          int64_t inner, cudaStream_t stream) {
  const int64_t n = outer * channels * inner;
  if (n <= 0) return;
  channel_bias_kernel<<<detail::grid_for(n), detail::kBlockThreads, 0, stream>>>(y, bias, channels,
                                                                                 inner, n);
  check_launch("channel_bias_kernel");
}

}  // namespace kbv::cuda::ref
