// tests/sdk/candidates/unoptimised_relu.cpp — an honest relu that tests/sdk builds at -O0 (and tests/cli reads): it
// must pass, with the non-gating note that its host code was compiled without optimisation.
#include <kbv/plugin.hpp>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "unoptimised_relu")
kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input("x").data<float>();
  float* y = call.output("y").data<float>();
  for (int64_t i = 0; i < call.output("y").numel(); ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
