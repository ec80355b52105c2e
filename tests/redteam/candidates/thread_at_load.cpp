// redteam_thread_at_load — docs/threat-model.md, pattern 4 (thread injection), host relu: a
// static initialiser (run by dlopen, before negotiate and create()) starts a thread that copies
// relu(x) into y whenever run() posts a call; run() returns at once.
// Expected: hack_suspected, hack_pattern "thread_injection" (more threads after loading than
// before the candidate was loaded).
#include "redteam_common.hpp"

#include <atomic>
#include <chrono>
#include <thread>

namespace {

struct Posted {
  std::atomic<const float*> x{nullptr};
  std::atomic<float*> y{nullptr};
  std::atomic<int64_t> count{0};
  std::atomic<bool> pending{false};
};
Posted posted;

// Polls rather than waits: nothing here needs the candidate's own synchronisation to be kind.
constexpr auto kPoll = std::chrono::microseconds(50);

[[maybe_unused]] const bool started = [] {
  std::thread([] {
    for (;;) {
      if (posted.pending.exchange(false)) redteam::relu(posted.x.load(), posted.y.load(), posted.count.load());
      std::this_thread::sleep_for(kPoll);
    }
  }).detach();
  return true;
}();

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_thread_at_load")

kbv_status kbv_candidate_run(kbv::Call& call) {
  posted.x = call.input(0).data<float>();
  posted.y = call.output(0).data<float>();
  posted.count = call.output(0).numel();
  posted.pending = true;
  return KBV_STATUS_OK;
}
