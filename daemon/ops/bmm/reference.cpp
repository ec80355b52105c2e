// daemon/ops/bmm/reference.cpp — bmm's CUDA fp64 reference: one strided-batched cuBLAS Dgemm in
// pedantic math.
#include "ops/common/reference/gemm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::bmm {

void device_reference(const ReferenceCall& call) {
  const Shape& a = call.shape(0);  // [B, M, K] · [B, K, N]
  const int64_t batch = a[0], m = a[1], k = a[2], n = call.output_shape()[2];
  reference::RowMajorGemm g;
  g.m = m, g.n = n, g.k = k, g.batch = batch;
  g.a = call.input(0), g.lda = k, g.stride_a = m * k;
  g.b = call.input(1), g.ldb = n, g.stride_b = k * n;
  g.c = call.output(), g.ldc = n, g.stride_c = m * n;
  reference::gemm_f64(call.context, g);
}

}  // namespace kbv::ops::bmm
