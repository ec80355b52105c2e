// tests/sdk/out_of_tree/my_relu.cpp — an out-of-tree author's honest host ReLU, written against the installed SDK.
#include <kbv/plugin.hpp>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "my_relu")
kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input("x").data<float>();
  float* y = call.output("y").data<float>();
  const int64_t n = call.output("y").numel();
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
