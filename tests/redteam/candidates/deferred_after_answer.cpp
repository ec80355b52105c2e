// redteam_deferred_after_answer — docs/threat-model.md, pattern 5 (deferred output), host relu,
// without a thread: it hooks the worker's own sendmsg (its GOT slot), and every timed call's
// run() only keeps the pointers and returns at once; the relu is computed inside the hook just
// after the worker's "done" has left, while the evaluator would be reading the outputs. The first
// slot (correctness) is computed honestly. It passed at 90x until kbv stopped the worker on
// every answer (eval/worker_process.hpp) and ended the round trip there.
// Expected: never a pass. fail_correctness (a timed call's outputs unwritten, or written only
// in part in the instant before the worker stopped), or hack_suspected timer_tampering when the
// work fits in that instant (inside the round trip).
#include "got_patch.hpp"
#include "redteam_common.hpp"

#include <sys/socket.h>

namespace {

using SendMessage = ssize_t (*)(int, const msghdr*, int);
SendMessage g_send = nullptr;
const float* g_x = nullptr;
float* g_y = nullptr;
int64_t g_count = 0;
const float* g_first_x = nullptr;

ssize_t send_then_compute(int fd, const msghdr* message, int flags) {
  const ssize_t sent = g_send(fd, message, flags);
  if (g_y != nullptr) {
    redteam::relu(g_x, g_y, g_count);
    g_y = nullptr;
  }
  return sent;
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_deferred_after_answer")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_send == nullptr && redteam::patch_got({"sendmsg", reinterpret_cast<void*>(&send_then_compute), reinterpret_cast<void**>(&g_send)}) == 0)
    redteam::log("sendmsg hook: no slot written");
  const float* x = call.input(0).data<float>();
  if (g_first_x == nullptr) g_first_x = x;
  if (g_send == nullptr || x == g_first_x) return redteam::honest_relu(call);
  g_x = x;
  g_y = call.output(0).data<float>();
  g_count = call.output(0).numel();
  return KBV_STATUS_OK;
}
