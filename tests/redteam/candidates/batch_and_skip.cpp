// redteam_batch_and_skip — docs/threat-model.md, pattern 12 (batch-and-skip), host relu: does the real work
// on every 4th call only and returns the last computed output on the other three, so the
// average time per call is a quarter of the honest one.
// Expected: fail_correctness (every call is synced and checked; stale outputs fail).
#include "redteam_common.hpp"

#include <algorithm>
#include <vector>

namespace {
constexpr uint64_t kWorkEvery = 4;
uint64_t g_calls = 0;
std::vector<float> g_last;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_batch_and_skip")

kbv_status kbv_candidate_run(kbv::Call& call) {
  float* y = call.output(0).data<float>();
  const auto count = static_cast<size_t>(call.output(0).numel());
  if (g_calls++ % kWorkEvery == 0 || g_last.size() != count) {
    redteam::honest_relu(call);
    g_last.assign(y, y + count);
  } else {
    std::copy(g_last.begin(), g_last.end(), y);
  }
  return KBV_STATUS_OK;
}
