// ops/common/baseline/blas.hpp — the cuBLAS baselines of the matrix products, as PyTorch eager
// calls cuBLAS: mm → cublasSgemm (at::cuda::blas::gemm<float>), bmm → cublasSgemmStridedBatched
// (at::cuda::blas::bgemm<float>). Row-major C[M,N] = A[M,K]·B[K,N] is column-major Cᵀ = Bᵀ·Aᵀ:
// the operands swap and no transpose is needed (PyTorch does the same).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "measure/baseline/node_step.hpp"

namespace kbv::ops::baseline {

// `value` as cuBLAS's int, or std::invalid_argument naming the node and dimension.
int as_blas_int(int64_t value, const cuda::measure::NodeContext& node, const char* dim);

// "TF32 tensor-op math" or "strict fp32 math", for step descriptions.
std::string math_text(cuda::MathMode mode);

// C[batch][M,N] = A[batch][M,K] · B[batch][K,N]: cublasSgemm for one, else strided-batched.
std::unique_ptr<cuda::measure::NodeStep> make_gemm_step(cuda::measure::LibraryContext& context,
                                                       int64_t batch, int m, int n, int k);

}  // namespace kbv::ops::baseline
