// hostile_relu_wrong_input_name — a candidate that asks for an input by a name the problem does
// not have (relu's input is "x"): the C++ helper throws, and the call fails.
// Expected verdict: fail_correctness; the detail names the status and the wrong name (and, with
// the SDK's helper, the names the problem does have).
#include <kbv/plugin.hpp>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_wrong_input_name")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input("nonexistent").data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t i = 0; i < call.output(0).numel(); ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
