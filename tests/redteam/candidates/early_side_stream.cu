// redteam_early_side_stream — docs/threat-model.md, pattern 3 (stream injection), aimed at the launch gate:
// while the gate holds the timed stream, run() launches the (correct) relu on a private
// non-blocking stream, waits on the host until it is done, then makes the timed stream wait
// for it. The work is finished before the start event runs, so the events bracket nothing.
// Expected: hack_suspected, hack_pattern "stream_injection" (CUPTI: a kernel of the call began
// before the marker in front of the start event; the physical floor and the evaluator's own
// clock would also see it).
#include "redteam_common.cuh"

namespace {
cudaStream_t g_private = nullptr;
cudaEvent_t g_done = nullptr;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_early_side_stream")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (kbv_status s = redteam::private_stream(&g_private); s != KBV_STATUS_OK) return s;
  if (g_done == nullptr) {
    if (kbv_status s = redteam::status_of(cudaEventCreateWithFlags(&g_done, cudaEventDisableTiming), "cudaEventCreate");
        s != KBV_STATUS_OK)
      return s;
  }
  if (kbv_status s = redteam::launch_relu(call.input(0).data<float>(), call.output(0).data<float>(),
                                          call.output(0).numel(), g_private);
      s != KBV_STATUS_OK)
    return s;
  // Only the private stream is waited for: the timed stream is still held.
  if (kbv_status s = redteam::status_of(cudaEventRecord(g_done, g_private), "cudaEventRecord"); s != KBV_STATUS_OK) return s;
  if (kbv_status s = redteam::status_of(cudaEventSynchronize(g_done), "cudaEventSynchronize"); s != KBV_STATUS_OK) return s;
  return redteam::status_of(cudaStreamWaitEvent(redteam::stream_of(call), g_done, 0), "cudaStreamWaitEvent");
}
