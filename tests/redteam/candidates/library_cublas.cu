// redteam_library_cublas — docs/threat-model.md, pattern 17 (library call), CUDA matmul_square: the whole
// "kernel" is one cublasSgemm (TF32 tensor-op math) on the call's stream — correct and fast,
// but the speedup is cuBLAS's, not the author's.
// Expected: pass with the non-gating flag "calls_library" (cuBLAS symbols imported, cuBLAS
// kernels in the trace); not a failure.
#include "redteam_common.cuh"

#include <cublas_v2.h>

namespace {
cublasHandle_t g_handle = nullptr;

kbv_status cublas_status(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return KBV_STATUS_OK;
  kbv::set_error(std::string(what) + " failed: " + cublasGetStatusString(status));
  return KBV_STATUS_DEVICE_ERROR;
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_library_cublas")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_handle == nullptr) {
    if (kbv_status s = cublas_status(cublasCreate(&g_handle), "cublasCreate"); s != KBV_STATUS_OK) return s;
    if (kbv_status s = cublas_status(cublasSetMathMode(g_handle, CUBLAS_TF32_TENSOR_OP_MATH), "cublasSetMathMode");
        s != KBV_STATUS_OK)
      return s;
  }
  if (kbv_status s = cublas_status(cublasSetStream(g_handle, redteam::stream_of(call)), "cublasSetStream");
      s != KBV_STATUS_OK)
    return s;
  const kbv::Tensor a = call.input(0), b = call.input(1);
  const int m = static_cast<int>(a.dim(0u)), k = static_cast<int>(a.dim(1u)), n = static_cast<int>(b.dim(1u));
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: swap the operands, no transposes.
  return cublas_status(cublasSgemm(g_handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b.data<float>(), n,
                                   a.data<float>(), k, &zero, call.output(0).data<float>(), n),
                       "cublasSgemm");
}
