// redteam_precision_bf16_host — docs/threat-model.md, pattern 15 (precision downgrade), host matmul_square:
// rounds both operands to bfloat16 (bf16_round.hpp) before multiplying, accumulating in fp32 — the
// arithmetic of a bf16 tensor-core GEMM, in an fp32 task.
// Expected: fail_correctness on a hidden zero-mean family: relative L2 error ≈ 2.3e-3 (8× TF32's)
// against matmul_square's rel_l2 tolerance of 2e-3; it can pass the public U[0,1) family,
// where the rounding errors average out against a large positive output.
#include "bf16_round.hpp"
#include "redteam_common.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_precision_bf16_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor a = call.input(0), b = call.input(1);
  const int64_t m = a.dim(0u), k = a.dim(1u), n = b.dim(1u);
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  float* c = call.output(0).data<float>();
  for (int64_t i = 0; i < m; ++i) {
    float* c_row = c + i * n;
    for (int64_t j = 0; j < n; ++j) c_row[j] = 0.0f;
    for (int64_t p = 0; p < k; ++p) {
      const float a_ip = redteam::to_bf16(pa[i * k + p]);
      for (int64_t j = 0; j < n; ++j) c_row[j] += a_ip * redteam::to_bf16(pb[p * n + j]);
    }
  }
  return KBV_STATUS_OK;
}
