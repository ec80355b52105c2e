// hostile_relu_wrong_problem — honest relu code that declares problem "gelu".
// Expected verdict: load_error when evaluated with --problem relu (kbv compares the problem
// the candidate declares with the one it was asked to evaluate).
#include <kbv/plugin.hpp>

KBV_CANDIDATE("gelu", KBV_DEVICE_HOST, "relu_declared_as_gelu")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
