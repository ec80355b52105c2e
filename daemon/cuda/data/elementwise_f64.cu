// data/elementwise_f64.cu — fp64 elementwise reference kernels: activations, scale,
// broadcasting add/mul, and channel-bias addition.
#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "data/reference_kernels.hpp"

namespace kbv::cuda::ref {
namespace {

__device__ double apply_unary(UnaryKind kind, double parameter, double x) {
  // 1/sqrt(2) to double precision, for GELU's exact erf form (PyTorch approximate='none').
  constexpr double kInvSqrt2 = 0.70710678118654752440084436210485;
  switch (kind) {
    case UnaryKind::relu: return x < 0.0 ? 0.0 : x;  // NaN propagates, as torch.relu
    case UnaryKind::gelu: return 0.5 * x * (1.0 + erf(x * kInvSqrt2));
    case UnaryKind::leaky_relu: return x < 0.0 ? x * parameter : x;
    case UnaryKind::sigmoid: return 1.0 / (1.0 + exp(-x));
    case UnaryKind::tanh: return tanh(x);
    case UnaryKind::scale: return x * parameter;
  }
  return x;
}

__global__ void unary_kernel(UnaryKind kind, double parameter, const double* x, double* y,
                             int64_t n) {
  for (int64_t i = detail::global_thread_index(); i < n; i += detail::grid_stride()) {
    y[i] = apply_unary(kind, parameter, x[i]);
  }
}

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

void unary_f64(UnaryKind kind, double parameter, const double* x, double* y, int64_t n,
               cudaStream_t stream) {
  if (n <= 0) return;
  unary_kernel<<<detail::grid_for(n), detail::kBlockThreads, 0, stream>>>(kind, parameter, x, y, n);
  check_launch("unary_kernel");
}

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
