// daemon/ops/common/reference/gemm_f64.cpp — row-major GEMM as cuBLAS's column-major one: a
// row-major matrix read column-major is its transpose, so C = A·B is computed as Cᵀ = Bᵀ·Aᵀ.
#include "ops/common/reference/gemm_f64.hpp"

#include "common/cuda_error.hpp"

namespace kbv::ops::reference {

void gemm_f64(const cuda::ReferenceContext& context, const RowMajorGemm& g) {
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;
  const double zero = 0.0;
  // Column-major view: Cᵀ[n,m] = op(Bᵀ)[n,k] · op(Aᵀ)[k,m]. Bᵀ as stored is [n,k] when B is
  // [k,n] row-major, and [k,n] (so it needs a transpose) when B is given as [n,k]; likewise A.
  const cublasOperation_t op_b = g.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = g.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (g.batch == 1) {
    cuda::check(cublasDgemm_64(context.cublas(), op_b, op_a, g.n, g.m, g.k, &g.alpha, g.b,
                               g.ldb, g.a, g.lda, &zero, g.c, g.ldc),
                "cublasDgemm_64");
    return;
  }
  cuda::check(cublasDgemmStridedBatched_64(context.cublas(), op_b, op_a, g.n, g.m, g.k,
                                           &g.alpha, g.b, g.ldb, g.stride_b, g.a, g.lda, g.stride_a,
                                           &zero, g.c, g.ldc, g.stride_c, g.batch),
              "cublasDgemmStridedBatched_64");
}

}  // namespace kbv::ops::reference
