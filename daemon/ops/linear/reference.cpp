// daemon/ops/linear/reference.cpp — linear's CUDA fp64 reference: one cuBLAS Dgemm against the
// transposed weight, then the bias.
#include "ops/common/reference/channel_bias_f64.hpp"
#include "ops/common/reference/gemm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::linear {

void device_reference(const ReferenceCall& call) {
  const int64_t k = call.shape(0).back();  // x[..., K] · weight[N, K]ᵀ + bias[N]
  const int64_t n = call.shape(1)[0];
  const int64_t m = numel(call.shape(0)) / k;
  reference::RowMajorGemm g;
  g.m = m, g.n = n, g.k = k;
  g.a = call.input(0), g.lda = k;
  g.b = call.input(1), g.ldb = k, g.transpose_b = true;
  g.c = call.output(), g.ldc = n;
  reference::gemm_f64(call.context, g);
  if (call.input(2) != nullptr)
    reference::add_channel_bias_f64(call.output(), call.input(2), m, n, 1, call.stream);
}

}  // namespace kbv::ops::linear
