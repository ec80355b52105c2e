// daemon/ops/matmul/baseline.cpp — matmul's CUDA baseline: cublasSgemm, as PyTorch eager's mm
// (ops/common/baseline/blas.hpp); TF32 or strict fp32 by the library context's math mode.
#include "ops/common/baseline/blas.hpp"

namespace kbv::ops::matmul {

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Shape& a = node.input_shapes.at(0);  // [M, K] · [K, N]
  const Shape& b = node.input_shapes.at(1);
  return baseline::make_gemm_step(context, 1, baseline::as_blas_int(a[0], node, "M"),
                                  baseline::as_blas_int(b[1], node, "N"),
                                  baseline::as_blas_int(a[1], node, "K"));
}

}  // namespace kbv::ops::matmul
