// daemon/ops/bmm/baseline.cpp — bmm's CUDA baseline: cublasSgemmStridedBatched, as PyTorch eager's
// bmm (ops/common/baseline/blas.hpp); TF32 or strict fp32 by the library context's math mode.
#include "ops/common/baseline/blas.hpp"

namespace kbv::ops::bmm {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Shape& a = node.input_shapes.at(0);  // [B, M, K] · [B, K, N]
  const Shape& b = node.input_shapes.at(1);
  return baseline::make_gemm_step(context, baseline::as_blas_int(a[0], node, "batch"),
                                  baseline::as_blas_int(a[1], node, "M"),
                                  baseline::as_blas_int(b[2], node, "N"),
                                  baseline::as_blas_int(a[2], node, "K"));
}

}  // namespace kbv::ops::bmm
