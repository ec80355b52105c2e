// redteam_precision_bf16_timing_host — docs/threat-model.md, pattern 15 (precision downgrade) on
// timed calls only, host matmul_square: calls on the first call's output slot (the correctness
// slot) multiply in fp32; every other call (the timing slots) rounds both operands to bfloat16
// first, with the same code path and no new thread or kernel, so no phase check sees a change.
// The host rechecks every timed output against the fp64 reference it computes for every
// sample, at the problem's tolerance (host_data_plane.cpp), so the host catches it there; the CUDA
// twin (precision_bf16_timing.cu) meets a recheck against TF32 at twice the tolerance and needs
// the keyed full checks (eval/full_check_schedule.hpp), which the host runs too.
// Expected: fail_correctness (a timed call's output is wrong).
#include "bf16_round.hpp"
#include "redteam_common.hpp"

namespace {
float* g_correctness_output = nullptr;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_precision_bf16_timing_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor a = call.input(0), b = call.input(1);
  const int64_t m = a.dim(0u), k = a.dim(1u), n = b.dim(1u);
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  float* c = call.output(0).data<float>();
  if (g_correctness_output == nullptr) g_correctness_output = c;
  const bool downgrade = c != g_correctness_output;
  const auto operand = [downgrade](float v) { return downgrade ? redteam::to_bf16(v) : v; };
  for (int64_t i = 0; i < m; ++i) {
    float* c_row = c + i * n;
    for (int64_t j = 0; j < n; ++j) c_row[j] = 0.0f;
    for (int64_t p = 0; p < k; ++p) {
      const float a_ip = operand(pa[i * k + p]);
      for (int64_t j = 0; j < n; ++j) c_row[j] += a_ip * operand(pb[p * n + j]);
    }
  }
  return KBV_STATUS_OK;
}
