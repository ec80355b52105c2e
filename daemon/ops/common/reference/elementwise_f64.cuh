// ops/common/reference/elementwise_f64.cuh — the CUDA fp64 reference of an elementwise op,
// generated from its Definition: one grid-stride kernel applying Definition::apply<double>,
// numpy broadcasting for binary ops.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "ops/common/elementwise.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::reference {

// Output dims and each operand's element strides (0 along broadcast dims).
struct BroadcastLayout {
  int rank = 0;
  int64_t out_dims[kMaxBroadcastRank] = {};
  int64_t a_strides[kMaxBroadcastRank] = {};
  int64_t b_strides[kMaxBroadcastRank] = {};
};

template <class Definition>
__global__ void unary_f64_kernel(const double* x, double* y, int64_t n, Params<double> params) {
  for (int64_t i = cuda::detail::global_thread_index(); i < n; i += cuda::detail::grid_stride()) {
    y[i] = Definition::template apply<double>(x[i], params);
  }
}

template <class Definition>
__global__ void binary_f64_kernel(const double* a, const double* b, double* y,
                                  BroadcastLayout layout, int64_t n, Params<double> params) {
  for (int64_t i = cuda::detail::global_thread_index(); i < n; i += cuda::detail::grid_stride()) {
    int64_t rest = i, a_offset = 0, b_offset = 0;
    for (int d = layout.rank - 1; d >= 0; --d) {
      const int64_t coordinate = rest % layout.out_dims[d];
      rest /= layout.out_dims[d];
      a_offset += coordinate * layout.a_strides[d];
      b_offset += coordinate * layout.b_strides[d];
    }
    y[i] = Definition::template apply<double>(a[a_offset], b[b_offset], params);
  }
}

inline BroadcastLayout broadcast_layout(const ReferenceCall& call) {
  const Shape& out = call.output_shape();
  if (out.size() > static_cast<size_t>(kMaxBroadcastRank))
    throw OpError(std::string(call.name()) + " (device reference): output rank " +
                  std::to_string(out.size()) + " exceeds the supported " +
                  std::to_string(kMaxBroadcastRank));
  BroadcastLayout layout;
  layout.rank = static_cast<int>(out.size());
  const std::vector<int64_t> a = op_support::broadcast_strides(call.shape(0), out);
  const std::vector<int64_t> b = op_support::broadcast_strides(call.shape(1), out);
  for (size_t d = 0; d < out.size(); ++d) {
    layout.out_dims[d] = out[d];
    layout.a_strides[d] = a[d];
    layout.b_strides[d] = b[d];
  }
  return layout;
}

template <class Definition>
void run_elementwise(const ReferenceCall& call) {
  require_elementwise<Definition>();
  const Params<double> params = read_params<Definition>(call.attrs);
  const int64_t n = numel(call.output_shape());
  if (n <= 0) return;
  const unsigned grid = cuda::detail::grid_for(n);
  if constexpr (is_unary<Definition>) {
    unary_f64_kernel<Definition><<<grid, cuda::detail::kBlockThreads, 0, call.stream>>>(
        call.input(0), call.output(), n, params);
    cuda::check_launch("unary_f64_kernel");
  } else if constexpr (is_binary<Definition>) {
    binary_f64_kernel<Definition><<<grid, cuda::detail::kBlockThreads, 0, call.stream>>>(
        call.input(0), call.input(1), call.output(), broadcast_layout(call), n, params);
    cuda::check_launch("binary_f64_kernel");
  }
}

}  // namespace kbv::ops::reference
