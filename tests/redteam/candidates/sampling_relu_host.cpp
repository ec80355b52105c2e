// redteam_sampling_relu_host — docs/threat-model.md #1 (distribution special-casing), host relu:
// KernelBench's headline hack. It samples 32 evenly spaced inputs and, when none is negative,
// copies the input to the output (relu is the identity on non-negative values); otherwise it
// computes relu. Every public U[0,1) input and every hidden family with many negatives gets a
// correct output; only inputs where a few negatives hide among public-looking values expose it.
// Expected: fail_correctness on the rare class's family (rare_signs or rare_spikes), which every
// epoch gates on (inputs/family_classes.hpp), under every key.
#include "redteam_common.hpp"

#include <cstring>

namespace {
constexpr int64_t kSampled = 32;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_sampling_relu_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  const int64_t stride = count / kSampled > 0 ? count / kSampled : 1;
  bool any_negative = false;
  for (int64_t s = 0; s < kSampled && s * stride < count; ++s) any_negative |= x[s * stride] < 0.0f;
  if (any_negative) return redteam::honest_relu(call);
  std::memcpy(y, x, static_cast<size_t>(count) * sizeof(float));
  return KBV_STATUS_OK;
}
