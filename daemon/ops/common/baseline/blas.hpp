// ops/common/baseline/blas.hpp — the cuBLAS baselines of the matrix products, as PyTorch eager
// calls cuBLAS: mm → cublasSgemm (at::cuda::blas::gemm<float>), bmm and broadcast matmul →
// cublasSgemmStridedBatched (at::cuda::blas::bgemm<float>). Row-major C[M,N] = A[M,K]·B[K,N] is
// column-major Cᵀ = Bᵀ·Aᵀ: the operands swap and no transpose is needed (PyTorch does the same);
// an operand stored transposed is passed as cuBLAS's op = T, never copied.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "measure/baseline/node_step.hpp"

namespace kbv::ops::baseline {

// `value` as cuBLAS's int, or std::invalid_argument naming the node and dimension.
int as_blas_int(int64_t value, const cuda::measure::NodeContext& node, const char* dim);

// "TF32 tensor-op math" or "strict fp32 math", for step descriptions.
std::string math_text(cuda::MathMode mode);

// One cuBLAS call: `batch` row-major products C = alpha·op(A)·op(B), A stored [m,k] ([k,m] when
// transpose_a), B stored [k,n] ([n,k] when transpose_b), C [m,n]; offsets (from the pointers
// the call is run with) and batch strides in elements, a stride of 0 reusing one operand.
struct BlasGemm {
  int m = 0, n = 0, k = 0;
  int batch = 1;
  bool transpose_a = false, transpose_b = false;
  int64_t a_offset = 0, a_stride = 0;
  int64_t b_offset = 0, b_stride = 0;
  int64_t c_offset = 0, c_stride = 0;
  float alpha = 1.f;
};

// Enqueues `gemm` on the handle's stream: cublasSgemm for one product, else strided-batched.
void run_gemm(cuda::measure::LibraryContext& context, const BlasGemm& gemm, const float* a,
              const float* b, float* c);

// "cublasSgemm batch=1 m=… n=… k=… (TF32 tensor-op math)", with "op(A)=T"/"op(B)=T" when set.
std::string gemm_text(const BlasGemm& gemm, cuda::MathMode mode);

// A step running `calls` in order on the node's inputs 0 (A) and 1 (B) and its output (C).
std::unique_ptr<cuda::measure::NodeStep> make_gemm_step(cuda::measure::LibraryContext& context,
                                                       std::vector<BlasGemm> calls);

// C[batch][M,N] = A[batch][M,K] · B[batch][K,N], contiguous: one call as above.
std::unique_ptr<cuda::measure::NodeStep> make_gemm_step(cuda::measure::LibraryContext& context,
                                                       int64_t batch, int m, int n, int k);

}  // namespace kbv::ops::baseline
