// ops/common/reference/gemm_f64.hpp — row-major fp64 (batched) GEMM through cuBLAS, which is
// column-major, for the products' and conv2d's device references.
#pragma once

#include <cstdint>

#include "data/reference_context.hpp"

namespace kbv::ops::reference {

// For each of `batch` problems: C[m,n] = alpha · A · B, where A is [m,k] row-major, or [k,m] row-major
// and used transposed when transpose_a; B is [k,n] row-major, or [n,k] row-major and used
// transposed when transpose_b (a linear layer's weight). Leading dimensions are row strides in
// elements; batch strides are in elements (0 reuses one operand).
struct RowMajorGemm {
  int64_t m = 0, n = 0, k = 0;
  const double* a = nullptr;
  int64_t lda = 0, stride_a = 0;
  bool transpose_a = false;
  const double* b = nullptr;
  int64_t ldb = 0, stride_b = 0;
  bool transpose_b = false;
  double* c = nullptr;
  int64_t ldc = 0, stride_c = 0;
  int64_t batch = 1;
  double alpha = 1.0;
};

// Asynchronous on the context's stream; throws CudaError when cuBLAS refuses the call.
void gemm_f64(const cuda::ReferenceContext& context, const RowMajorGemm& gemm);

}  // namespace kbv::ops::reference
