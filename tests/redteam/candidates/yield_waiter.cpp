// redteam_yield_waiter — docs/threat-model.md, pattern 6 (timer patching), host relu: a 10× slow
// clock (GOT) hidden by making the worker's main thread wait without working. Each call hands
// the relu to a thread pinned to the main thread's CPU that ends before run() returns (so the
// thread count is unchanged and it is in neither schedstat reading), while the main thread loops
// on sched_yield: runnable all along, it gains a round trip of run_delay and almost no CPU time.
// Half of that wait was credited (kWorkerWaitCredit) and the one-thread CPU floor saw only the
// main thread, so a 10× clock on a ~310 µs call passed with no load on the machine. A thread's
// wait now counts only up to the CPU time it ran (wait_correction.hpp, longest_thread_wait_s).
// Expected: hack_suspected, timer_tampering.
#include "got_patch.hpp"
#include "redteam_common.hpp"
#include "slow_clock.hpp"

#include <sched.h>

#include <atomic>
#include <thread>

namespace {

void pin_to_current_cpu() {
  const int cpu = sched_getcpu();
  if (cpu < 0) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_yield_waiter")

kbv_status kbv_candidate_run(kbv::Call& call) {
  static bool patched = false;
  if (!patched) {
    patched = true;
    // A thread first, so that what starting one binds lazily is bound before got_patch leaves
    // the GOT pages read-only.
    std::thread([] {}).join();
    redteam::slow_clock_origin() = redteam::raw_monotonic_ns();
    redteam::patch_got({"clock_gettime", reinterpret_cast<void*>(&redteam::slow_clock_gettime), nullptr, true});
  }
  pin_to_current_cpu();  // the helper inherits the pin: it runs only while the main thread yields
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  std::atomic<bool> done{false};
  std::thread helper([x, y, count, &done] {
    redteam::relu(x, y, count);
    done.store(true, std::memory_order_release);
  });
  while (!done.load(std::memory_order_acquire)) sched_yield();
  helper.join();
  return KBV_STATUS_OK;
}
