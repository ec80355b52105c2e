// tests/kbvd/candidates/escape_group.cpp — a busy candidate that also leaves a process behind
// where neither the process group nor PR_SET_PDEATHSIG reach it: on its first call it forks a
// child that starts a new session (setsid: its own process group), names itself kbv-escapee and
// spins; then the call itself spins. Only a kernel that lets it fork (the worker sandbox off:
// seccomp refuses fork) lets it do this. Expected: kill -9 of kbvd during its evaluation leaves
// the escapee running until kbvd's next start, whose recovery kills the evaluation's cgroup.
// The escapee ends by itself after kEscapeeSeconds, so a failing test leaves nothing for long.
#include <kbv/plugin.hpp>

#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>

namespace {
constexpr int kEscapeeSeconds = 120;
std::atomic<bool> g_forever{true};
bool g_forked = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "kbvd_escape_group")

kbv_status kbv_candidate_run(kbv::Call&) {
  if (!g_forked) {
    g_forked = true;
    if (::fork() == 0) {
      ::setsid();
      ::prctl(PR_SET_NAME, "kbv-escapee");
      const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(kEscapeeSeconds);
      while (std::chrono::steady_clock::now() < end) {
      }
      ::_exit(0);
    }
  }
  while (g_forever.load(std::memory_order_relaxed)) {
  }
  return KBV_STATUS_OK;
}
