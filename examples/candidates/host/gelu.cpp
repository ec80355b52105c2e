// host gelu — exact GELU, y = 0.5·x·(1 + erf(x/√2)) (torch.nn.functional.gelu, approximate='none').
#include "host_common.hpp"

#include <cmath>

namespace {
constexpr float kInvSqrt2 = 0.70710678118654752440f;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "gelu_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t count = call.output(0).numel();
  if (!expect(call.input(0).numel() == count, "x and y differ in size")) return KBV_STATUS_INVALID_ARGUMENT;
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t i = 0; i < count; ++i) y[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * kInvSqrt2));
  return KBV_STATUS_OK;
}
