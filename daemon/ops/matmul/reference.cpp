// daemon/ops/matmul/reference.cpp — matmul's CUDA fp64 reference: cuBLAS Dgemm in pedantic math,
// one call per group of products the plan makes (ops/matmul/matmul_plan.hpp), transposed
// operands passed as op(A)/op(B).
#include "ops/common/reference/gemm_f64.hpp"
#include "ops/common/reference/reference_call.hpp"
#include "ops/matmul/matmul_plan.hpp"

namespace kbv::ops::matmul {

void device_reference(const ReferenceCall& call) {
  const MatmulPlan plan = plan_matmul(call.name(), call.args.input_shapes, call.attrs);
  for (const GemmCall& product : gemm_calls(plan)) {
    reference::RowMajorGemm g;
    g.m = product.m, g.n = plan.n, g.k = plan.k, g.batch = product.batch;
    g.a = call.input(0) + product.a_offset, g.stride_a = product.a_stride;
    g.lda = plan.transpose_a ? plan.m : plan.k, g.transpose_a = plan.transpose_a;
    g.b = call.input(1) + product.b_offset, g.stride_b = product.b_stride;
    g.ldb = plan.transpose_b ? plan.k : plan.n, g.transpose_b = plan.transpose_b;
    g.c = call.output() + product.c_offset, g.ldc = plan.n, g.stride_c = plan.m * plan.n;
    reference::gemm_f64(call.context, g);
  }
}

}  // namespace kbv::ops::matmul
