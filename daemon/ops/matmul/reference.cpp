// daemon/ops/matmul/reference.cpp — matmul's CUDA fp64 reference: one cuBLAS Dgemm in pedantic
// math.
#include "ops/common/reference/gemm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::matmul {

void device_reference(const ReferenceCall& call) {
  const Shape& a = call.shape(0);  // [M, K] · [K, N]
  const int64_t m = a[0], k = a[1], n = call.output_shape()[1];
  reference::RowMajorGemm g;
  g.m = m, g.n = n, g.k = k;
  g.a = call.input(0), g.lda = k;
  g.b = call.input(1), g.ldb = n;
  g.c = call.output(), g.ldc = n;
  reference::gemm_f64(call.context, g);
}

}  // namespace kbv::ops::matmul
