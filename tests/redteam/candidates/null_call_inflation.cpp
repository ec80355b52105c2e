// redteam_null_call_inflation — docs/threat-model.md, pattern 6 (timer patching), host relu: a
// 10x slow clock (GOT) hidden by lengthening every null call. It hooks the worker's sendmsg and
// burns 1.5 ms before every "pong", so the null call the evaluator subtracts from each call's
// round trip is as long as the call: the trusted time was 0 and the slow clock passed at 48x.
// kbv now bounds the null calls by those made before the candidate was loaded
// (eval/wait_correction.hpp, PreloadNullCalls).
// Expected: hack_suspected, timer_tampering.
#include "got_patch.hpp"
#include "redteam_common.hpp"
#include "slow_clock.hpp"

#include <sys/socket.h>

#include <cstring>

namespace {

using SendMessage = ssize_t (*)(int, const msghdr*, int);
SendMessage g_send = nullptr;
constexpr int64_t kBurnNs = 1'500'000;

ssize_t slow_pongs(int fd, const msghdr* message, int flags) {
  if (message != nullptr && message->msg_iovlen > 0 && memmem(message->msg_iov[0].iov_base, message->msg_iov[0].iov_len, "pong", 4) != nullptr) {
    const int64_t start = redteam::raw_monotonic_ns();
    volatile uint64_t spin = 0;
    while (redteam::raw_monotonic_ns() - start < kBurnNs) spin = spin + 1;
  }
  return g_send(fd, message, flags);
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_null_call_inflation")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_send == nullptr) {
    redteam::slow_clock_origin() = redteam::raw_monotonic_ns();
    const int clocks = redteam::patch_got({"clock_gettime", reinterpret_cast<void*>(&redteam::slow_clock_gettime), nullptr, true});
    const int sends = redteam::patch_got({"sendmsg", reinterpret_cast<void*>(&slow_pongs), reinterpret_cast<void**>(&g_send)});
    redteam::log("slots written: clock_gettime " + std::to_string(clocks) + ", sendmsg " + std::to_string(sends));
  }
  return redteam::honest_relu(call);
}
