// redteam_null_call_completion — docs/threat-model.md, pattern 5 (deferred output), host relu: a
// timed call that a null call follows (kbv takes one after each of the first 8 timed calls and
// then every 8th: evaluation_timing.cpp) computes only the first half of its outputs and returns;
// a hook on the worker's recvmsg (GOT) finishes the other half when that null call arrives. The
// other calls are honest. The timed outputs were read again only after the null call, so they
// were whole and the deferred work went unseen (a candidate that also ends the timing phase
// early makes those calls the median); kbv now rechecks them before the worker runs another
// message.
// Expected: fail_correctness (a timed call's output is wrong).
#include "got_patch.hpp"
#include "redteam_common.hpp"

#include <sys/socket.h>

#include <string_view>

namespace {

using ReceiveMessage = ssize_t (*)(int, msghdr*, int);
ReceiveMessage g_receive = nullptr;
const float* g_pending_x = nullptr;
float* g_pending_y = nullptr;
int64_t g_pending_count = 0;
float* g_correctness_output = nullptr;

ssize_t receive_and_finish(int fd, msghdr* message, int flags) {
  const ssize_t got = g_receive(fd, message, flags);
  if (got <= 0 || message->msg_iovlen < 1 || g_pending_y == nullptr) return got;
  const std::string_view text(static_cast<const char*>(message->msg_iov[0].iov_base), static_cast<size_t>(got));
  if (text.find("null_call") == std::string_view::npos) return got;
  redteam::relu(g_pending_x, g_pending_y, g_pending_count);
  g_pending_y = nullptr;
  return got;
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_null_call_completion")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_receive == nullptr) redteam::patch_got({"recvmsg", reinterpret_cast<void*>(&receive_and_finish), reinterpret_cast<void**>(&g_receive)});
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  if (g_correctness_output == nullptr) g_correctness_output = y;  // the first call's slot: correctness, checked at once
  if (y == g_correctness_output) return redteam::honest_relu(call);
  static int timed_calls = 0;
  const int timed_call = timed_calls++;
  if (timed_call >= 8 && timed_call % 8 != 0) return redteam::honest_relu(call);  // no null call follows
  const int64_t half = count / 2;
  redteam::relu(x, y, half);
  g_pending_x = x + half;
  g_pending_y = y + half;
  g_pending_count = count - half;
  return KBV_STATUS_OK;
}
