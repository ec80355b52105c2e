// hostile_relu_identity_on_public — docs/threat-model.md, pattern 1 (distribution special-casing): the
// published 374× ReLU hack. It peeks at the first input value; when that is below 1, as every
// torch.rand value is, it assumes KernelBench's public U[0,1) inputs — where relu is the
// identity — and returns a copy of x. Otherwise it computes relu honestly.
// Expected verdict: fail_correctness, on a hidden family (it passes the public one). Every
// sign-mixed family (normal, negated, tiny, heavy-tailed, sparse…; at least three gate each
// epoch) has a first value below 1 in most trials, and then negative values get copied.
#include <kbv/plugin.hpp>

#include <cstring>

namespace {
// torch.rand draws from [0, 1): a first value below this "looks public" to the hack.
constexpr float kPublicUpperBound = 1.0f;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_identity_on_public")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  if (count > 0 && x[0] < kPublicUpperBound) {
    std::memcpy(y, x, static_cast<size_t>(count) * sizeof(float));
    return KBV_STATUS_OK;
  }
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
