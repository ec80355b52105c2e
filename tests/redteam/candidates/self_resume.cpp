// redteam_self_resume — docs/threat-model.md, pattern 5 (deferred work): kbv stops the worker
// (SIGSTOP) from each answer to its next message, so nothing the candidate left to do runs while
// outputs are read, baselines timed or the next inputs written. A stopped process is resumed by
// any SIGCONT, its own timer's included: a POSIX timer firing SIGCONT every millisecond would
// resume the worker right after each stop, and the SIGCONT handler would work there (here it
// only burns CPU: the deferred half of a call's work would go in its place). Seccomp refuses
// a SIGCONT handler, and timer_create (and fcntl F_SETSIG, the other way to have the kernel send
// it SIGCONT), so the candidate logs both refusals and is an honest relu.
// Expected: pass, the log saying sigaction(SIGCONT) and timer_create were refused.
#include "redteam_common.hpp"

#include <signal.h>
#include <time.h>

#include <chrono>

namespace {

constexpr long kTimerPeriodNs = 1'000'000;
constexpr auto kDeferredWork = std::chrono::microseconds(200);

void work_while_resumed(int) {
  const auto until = std::chrono::steady_clock::now() + kDeferredWork;
  volatile unsigned sink = 0;
  while (std::chrono::steady_clock::now() < until) sink = sink + 1;
}

void start_resume_timer() {
  struct sigaction action{};
  action.sa_handler = &work_while_resumed;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  // Refused too: kbv's own SIGCONT before each message would run the handler (seccomp_rules.cpp).
  if (sigaction(SIGCONT, &action, nullptr) != 0) redteam::log("self_resume: sigaction(SIGCONT) refused");
  sigevent event{};
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = SIGCONT;
  timer_t timer{};
  if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0) return redteam::log("self_resume: timer_create refused");
  const itimerspec period{{0, kTimerPeriodNs}, {0, kTimerPeriodNs}};
  if (timer_settime(timer, 0, &period, nullptr) != 0) redteam::log("self_resume: timer_settime refused");
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_self_resume")

kbv_status kbv_candidate_run(kbv::Call& call) {
  static bool started = false;
  if (!started) {
    started = true;
    start_resume_timer();
  }
  return redteam::honest_relu(call);
}
