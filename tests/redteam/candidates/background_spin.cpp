// redteam_background_spin — docs/threat-model.md, pattern 4 (thread injection) used as a noisy neighbour,
// host relu: computes relu honestly, but its first call leaves threads spinning on every
// core forever, to slow down whatever kbv measures next on this machine (the baseline).
// Expected: hack_suspected, hack_pattern "thread_injection" (threads outlive the call).
#include "redteam_common.hpp"

#include <atomic>
#include <thread>

namespace {
std::atomic<bool> g_spin{true};
std::atomic<bool> g_started{false};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_background_spin")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_started.exchange(true)) {
    const unsigned cores = std::thread::hardware_concurrency();
    for (unsigned i = 0; i < (cores == 0 ? 1 : cores); ++i)
      std::thread([] {
        while (g_spin.load(std::memory_order_relaxed)) {
        }
      }).detach();
  }
  return redteam::honest_relu(call);
}
