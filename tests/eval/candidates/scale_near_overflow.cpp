// hostile_scale_near_overflow — an honest candidate of the test problem scale_near_overflow
// (tests/eval/problems/): y = x · 1e36 in fp32, which is the reference within fp32's rounding.
// Expected verdict: pass, the public family (whose reference is up to 1e36) reported as not
// gating because it is near fp32's overflow, and a family far from it (tiny) gating.
#include <kbv/plugin.hpp>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "scale_near_overflow")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0);
  const float* in = x.data<float>();
  float* out = call.output(0).data<float>();
  for (int64_t i = 0; i < x.numel(); ++i) out[i] = static_cast<float>(static_cast<double>(in[i]) * 1e36);
  return KBV_STATUS_OK;
}
