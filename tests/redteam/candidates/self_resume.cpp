// redteam_self_resume — docs/threat-model.md, pattern 11 (precomputation outside the call): kbv
// stops the worker (SIGSTOP) from each answer to its next message, so nothing of the candidate
// runs while a sample's inputs are written or its outputs read again. A stopped process is
// resumed by any SIGCONT, its own timer's included: a hook on the worker's recvmsg (GOT) arms a
// one-shot POSIX timer firing SIGCONT 1 ms after each wake-up ping, while kbv writes the next
// sample's inputs, and the SIGCONT handler works there (here it only burns CPU: a precomputation
// of the product from the fresh inputs would go in its place). The relu itself is honest.
// Expected: pass with the log saying timer_create was refused (seccomp refuses it, and fcntl
// F_SETSIG, the other way to have the kernel send the worker SIGCONT); with seccomp left out
// (KBV_SANDBOX_SKIP=seccomp) hack_suspected work_outside_call, the stopped worker's CPU clock
// having moved (or a timeout, when a SIGCONT lands as kbv waits for the stop).
#include "got_patch.hpp"
#include "redteam_common.hpp"

#include <signal.h>
#include <sys/socket.h>
#include <time.h>

#include <chrono>
#include <string_view>

namespace {

constexpr long kDelayAfterPingNs = 1'000'000;
constexpr auto kWorkWhileResumed = std::chrono::microseconds(100);

using ReceiveMessage = ssize_t (*)(int, msghdr*, int);
ReceiveMessage g_receive = nullptr;
timer_t g_timer{};
bool g_armed = false;

void work_while_resumed(int) {
  const auto until = std::chrono::steady_clock::now() + kWorkWhileResumed;
  volatile unsigned sink = 0;
  while (std::chrono::steady_clock::now() < until) sink = sink + 1;
}

ssize_t receive_and_arm(int fd, msghdr* message, int flags) {
  const ssize_t got = g_receive(fd, message, flags);
  if (got <= 0 || message->msg_iovlen < 1 || !g_armed) return got;
  const std::string_view text(static_cast<const char*>(message->msg_iov[0].iov_base), static_cast<size_t>(got));
  if (text.find("\"ping\"") == std::string_view::npos || text.find("null_call") != std::string_view::npos) return got;
  const itimerspec once{{0, 0}, {0, kDelayAfterPingNs}};
  timer_settime(g_timer, 0, &once, nullptr);
  return got;
}

void prepare_resume_timer() {
  struct sigaction action{};
  action.sa_handler = &work_while_resumed;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGCONT, &action, nullptr) != 0) return redteam::log("self_resume: sigaction failed");
  sigevent event{};
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = SIGCONT;
  if (timer_create(CLOCK_MONOTONIC, &event, &g_timer) != 0) return redteam::log("self_resume: timer_create refused");
  g_armed = true;
  redteam::patch_got({"recvmsg", reinterpret_cast<void*>(&receive_and_arm), reinterpret_cast<void**>(&g_receive)});
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_self_resume")

kbv_status kbv_candidate_run(kbv::Call& call) {
  static bool started = false;
  if (!started) {
    started = true;
    prepare_resume_timer();
  }
  return redteam::honest_relu(call);
}
