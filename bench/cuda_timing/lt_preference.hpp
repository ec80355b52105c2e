// bench/cuda_timing/lt_preference.hpp — the cuBLASLt pieces the GEMM modes (--gemm-padding,
// --linear-offers) build alike: an fp32 matrix layout, and a heuristic preference with the
// library's workspace and the operands' alignments.
#pragma once

#include <cublasLt.h>

#include <cstdint>

#include "measure/baseline/library_context.hpp"
#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::bench {

inline cuda::measure::CublasLtLayout lt_layout(uint64_t rows, uint64_t cols, int64_t ld) {
  cublasLtMatrixLayout_t handle = nullptr;
  cuda::measure::check(cublasLtMatrixLayoutCreate(&handle, CUDA_R_32F, rows, cols, ld), "cublasLtMatrixLayoutCreate");
  return cuda::measure::CublasLtLayout(handle);
}

// A preference allowing the library's workspace (kBlasWorkspaceBytes), with A and B aligned to
// `operand_alignment` bytes and C and D to `output_alignment`.
inline cuda::measure::CublasLtPreference lt_preference(uint32_t operand_alignment, uint32_t output_alignment) {
  using cuda::measure::check;
  cublasLtMatmulPreference_t raw = nullptr;
  check(cublasLtMatmulPreferenceCreate(&raw), "cublasLtMatmulPreferenceCreate");
  cuda::measure::CublasLtPreference preference(raw);
  const uint64_t workspace = cuda::measure::kBlasWorkspaceBytes;
  check(cublasLtMatmulPreferenceSetAttribute(raw, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace),
        "cublasLtMatmulPreferenceSetAttribute");
  for (auto [attribute, value] : {std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, operand_alignment},
                                  std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, operand_alignment},
                                  std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, output_alignment},
                                  std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, output_alignment}})
    check(cublasLtMatmulPreferenceSetAttribute(raw, attribute, &value, sizeof value), "cublasLtMatmulPreferenceSetAttribute");
  return preference;
}

}  // namespace kbv::bench
