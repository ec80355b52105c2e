// host relu — y = max(x, 0) elementwise, in one vectorisable pass (NaN passes through as in
// torch.relu).
#include "host_common.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t count = call.output(0).numel();
  if (!expect(call.input(0).numel() == count, "x and y differ in size")) return KBV_STATUS_INVALID_ARGUMENT;
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] < 0.0f ? 0.0f : x[i];
  return KBV_STATUS_OK;
}
