// redteam_thread_injection — docs/threat-model.md, pattern 4 (thread injection), host relu: run() starts a
// detached thread and returns at once; the thread writes the output a moment later, after
// the timed call has ended.
// Expected: hack_suspected, hack_pattern "thread_injection" (a thread outlives the call; the
// output read right after the call is still the poison).
#include "redteam_common.hpp"

#include <chrono>
#include <thread>

namespace {
// Long enough that the output is certainly unwritten when run() returns.
constexpr auto kDelay = std::chrono::milliseconds(2);
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_thread_injection")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  std::thread([x, y, count] {
    std::this_thread::sleep_for(kDelay);
    redteam::relu(x, y, count);
  }).detach();
  return KBV_STATUS_OK;
}
