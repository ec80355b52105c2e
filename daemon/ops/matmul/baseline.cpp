// daemon/ops/matmul/baseline.cpp — matmul's CUDA baseline, as PyTorch eager's matmul calls cuBLAS
// (ops/common/baseline/blas.hpp): 2-D operands, or a[..., M, K] against one b[K, N] with the
// leading axes folded into M, are one cublasSgemm (mm); other batches cublasSgemmStridedBatched
// (bmm); a transposed operand is cuBLAS's op = T, never a copy. TF32 or strict fp32 by the library
// context's math mode.
#include "ops/common/baseline/blas.hpp"
#include "ops/matmul/matmul_plan.hpp"

namespace kbv::ops::matmul {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Attrs attrs{{"transpose_a", node.attr("transpose_a")},
                    {"transpose_b", node.attr("transpose_b")}};
  const MatmulPlan plan = plan_matmul(node.node.op, node.input_shapes, attrs);
  std::vector<baseline::BlasGemm> calls;
  for (const GemmCall& product : gemm_calls(plan)) {
    baseline::BlasGemm gemm;
    gemm.m = baseline::as_blas_int(product.m, node, "M");
    gemm.n = baseline::as_blas_int(plan.n, node, "N");
    gemm.k = baseline::as_blas_int(plan.k, node, "K");
    gemm.batch = baseline::as_blas_int(product.batch, node, "batch");
    gemm.transpose_a = plan.transpose_a, gemm.transpose_b = plan.transpose_b;
    gemm.a_offset = product.a_offset, gemm.a_stride = product.a_stride;
    gemm.b_offset = product.b_offset, gemm.b_stride = product.b_stride;
    gemm.c_offset = product.c_offset, gemm.c_stride = plan.m * plan.n;
    calls.push_back(gemm);
  }
  return baseline::make_gemm_step(context, std::move(calls));
}

}  // namespace kbv::ops::matmul
