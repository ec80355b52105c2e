// redteam_lazy_output — docs/threat-model.md, pattern 5 (lazy / deferred output), host relu: run() only
// remembers its buffers and returns; the real work for call n happens at the start of call
// n+1, i.e. whenever the harness next calls in — too late for a check right after the call.
// Expected: fail_correctness (outputs are read by trusted code immediately after each call).
#include "redteam_common.hpp"

namespace {
struct Deferred {
  const float* x = nullptr;
  float* y = nullptr;
  int64_t count = 0;
};
Deferred g_pending;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_lazy_output")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_pending.y != nullptr) redteam::relu(g_pending.x, g_pending.y, g_pending.count);
  g_pending = {call.input(0).data<float>(), call.output(0).data<float>(), call.output(0).numel()};
  return KBV_STATUS_OK;
}
