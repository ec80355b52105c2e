// redteam_phase_detection — docs/threat-model.md, pattern 12 (phase detection), host relu: honest for the
// first calls (where a harness typically checks correctness), then returns without writing
// anything (where a harness typically only times).
// Expected: fail_correctness (kbv rechecks the outputs of timed calls and randomises order).
#include "redteam_common.hpp"

namespace {
// Just past kbv's correctness phase at 7 families × 3 trials = 21 calls (the public family and
// inputs/epoch_plan.hpp's 6 hidden ones), so the skipping starts in the timing phase.
constexpr uint64_t kHonestCalls = 24;
uint64_t g_calls = 0;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_phase_detection")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_calls++ < kHonestCalls) return redteam::honest_relu(call);
  return KBV_STATUS_OK;
}
