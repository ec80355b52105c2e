// redteam_precision_bf16 — docs/threat-model.md, pattern 15 (precision downgrade), CUDA matmul_square: a
// bf16 tensor-core GEMM (half_gemm.cuh) in an fp32 task.
// Expected: fail_correctness on a hidden zero-mean family: relative L2 error ≈ 2.3e-3 (8× TF32's)
// against matmul_square's rel_l2 tolerance of 2e-3; it can pass the public U[0,1) family,
// where the rounding errors average out against a large positive output.
#include "half_gemm.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_precision_bf16")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor a = call.input(0), b = call.input(1);
  return redteam::half_gemm::launch<__nv_bfloat16, false>(call, a.data<float>(), b.data<float>(), a.dim(0u), b.dim(1u), a.dim(1u),
                                                          redteam::half_gemm::Unchanged{}, "gemm_bf16");
}
