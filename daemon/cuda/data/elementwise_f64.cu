// data/elementwise_f64.cu — fp64 elementwise reference kernels: broadcasting add/mul and
// channel-bias addition.
#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "data/reference_kernels.hpp"

namespace kbv::cuda::ref {
namespace {

__global__ void binary_kernel(BinaryKind kind, const double* a, const double* b, double* y,
                              BroadcastLayout layout, int64_t n) {
  for (int64_t i = detail::global_thread_index(); i < n; i += detail::grid_stride()) {
    int64_t rest = i, a_offset = 0, b_offset = 0;
    for (int d = layout.rank - 1; d >= 0; --d) {
      const int64_t coordinate = rest % layout.out_dims[d];
      rest /= layout.out_dims[d];
      a_offset += coordinate * layout.a_strides[d];
      b_offset += coordinate * layout.b_strides[d];
    }
    const double lhs = a[a_offset], rhs = b[b_offset];
    y[i] = kind == BinaryKind::add ? lhs + rhs : lhs * rhs;
  }
}

__global__ void channel_bias_kernel(double* y, const double* bias, int64_t channels,
                                    int64_t inner, int64_t n) {
  for (int64_t i = detail::global_thread_index(); i < n; i += detail::grid_stride()) {
    y[i] += bias[(i / inner) % channels];
  }
}

}  // namespace

void binary_f64(BinaryKind kind, const double* a, const double* b, double* y,
                const BroadcastLayout& layout, int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  binary_kernel<<<detail::grid_for(n), detail::kBlockThreads, 0, stream>>>(kind, a, b, y, layout, n);
  check_launch("binary_kernel");
}

void add_channel_bias_f64(double* y, const double* bias, int64_t outer, int64_t channels,
                          int64_t inner, cudaStream_t stream) {
  const int64_t n = outer * channels * inner;
  if (n <= 0) return;
  channel_bias_kernel<<<detail::grid_for(n), detail::kBlockThreads, 0, stream>>>(y, bias, channels,
                                                                                 inner, n);
  check_launch("channel_bias_kernel");
}

}  // namespace kbv::cuda::ref
