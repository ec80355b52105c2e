// redteam_layernorm_identity — docs/threat-model.md, pattern 1 (distribution special-casing), host
// layernorm: the published "LayerNorm as a memcpy" hack — on randn inputs the normalisation is
// nearly the identity, so it returns x·weight + bias without computing mean or variance.
// Expected: fail_correctness (already on the public U[0,1) family, mean 0.5 and variance 1/12,
// and on every hidden family).
#include "redteam_common.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_layernorm_identity")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  const float* weight = call.input(1).data<float>();
  const float* bias = call.input(2).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t total = call.input(0).numel(), row = call.input(1).numel();
  for (int64_t i = 0; i < total; ++i) y[i] = x[i] * weight[i % row] + bias[i % row];
  return KBV_STATUS_OK;
}
