// redteam_deferred_on_answer_gpu — docs/threat-model.md, pattern 5 (deferred output) on the GPU,
// CUDA relu: timed calls compute the first half of the outputs on the call's stream and return;
// a hook on the worker's own sendmsg (its GOT slot) runs the second half on a private stream just
// before the worker's "done" leaves, after the worker's device synchronisation, and waits for it
// (so the outputs are whole whenever the evaluator reads them: the round trip holds the work, the
// events half of it, which the clock agreement's factor 0.5 let pass). A candidate that did not
// wait would race the evaluator's reads, as the stopped worker's GPU work runs on. The correctness
// slot (the first call's) is computed honestly, so correctness passes.
// Expected: hack_suspected, hack_pattern "stream_injection": the kernel ended after the call's
// trace window closed, and the next window (the next call's, or the null call that closes the
// timing phase) reports it as work between calls.
#include "got_patch.hpp"
#include "redteam_common.cuh"

#include <sys/socket.h>

namespace {

using SendMessage = ssize_t (*)(int, const msghdr*, int);
SendMessage g_send = nullptr;
cudaStream_t g_private = nullptr;
const float* g_pending_x = nullptr;
float* g_pending_y = nullptr;
int64_t g_pending_count = 0;
float* g_correctness_output = nullptr;

ssize_t launch_then_send(int fd, const msghdr* message, int flags) {
  if (g_pending_y != nullptr) {
    if (redteam::launch_relu(g_pending_x, g_pending_y, g_pending_count, g_private) == KBV_STATUS_OK) (void)cudaStreamSynchronize(g_private);
    g_pending_y = nullptr;
  }
  return g_send(fd, message, flags);
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_deferred_on_answer_gpu")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (kbv_status s = redteam::private_stream(&g_private); s != KBV_STATUS_OK) return s;
  if (g_send == nullptr) redteam::patch_got({"sendmsg", reinterpret_cast<void*>(&launch_then_send), reinterpret_cast<void**>(&g_send)});
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  if (g_correctness_output == nullptr) g_correctness_output = y;  // the first call's slot: correctness, checked at once
  if (y == g_correctness_output || g_send == nullptr) return redteam::launch_relu(x, y, count, redteam::stream_of(call));
  const int64_t half = count / 2;
  g_pending_x = x + half;
  g_pending_y = y + half;
  g_pending_count = count - half;
  return redteam::launch_relu(x, y, half, redteam::stream_of(call));
}
