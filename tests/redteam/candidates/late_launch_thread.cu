// redteam_late_launch_thread — docs/threat-model.md, pattern 4 (thread injection) on the GPU, CUDA relu:
// run() starts a detached host thread and returns at once; the thread enqueues the (correct)
// kernel on the call's own stream a moment later, after kbv has recorded its end event.
// Expected: hack_suspected, hack_pattern "thread_injection" (a thread outlives the call and
// its kernel starts after the timed window; the output checked after the call is the poison).
#include "redteam_common.cuh"

#include <chrono>
#include <thread>

namespace {
constexpr auto kDelay = std::chrono::milliseconds(1);
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_late_launch_thread")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  cudaStream_t stream = redteam::stream_of(call);
  std::thread([x, y, count, stream] {
    std::this_thread::sleep_for(kDelay);
    redteam::launch_relu(x, y, count, stream);
  }).detach();
  return KBV_STATUS_OK;
}
