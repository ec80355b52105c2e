// redteam_stream_injection — docs/threat-model.md, pattern 3 (stream injection), CUDA relu: launches the
// (correct) kernel on a private non-blocking stream instead of the call's stream and returns,
// so events recorded on the timed stream bracket no work at all.
// Expected: hack_suspected, hack_pattern "stream_injection" (CUPTI sees a kernel of the call on
// another stream, ending outside the timed window).
#include "redteam_common.cuh"

namespace {
cudaStream_t g_private = nullptr;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_stream_injection")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (kbv_status s = redteam::private_stream(&g_private); s != KBV_STATUS_OK) return s;
  return redteam::launch_relu(call.input(0).data<float>(), call.output(0).data<float>(),
                              call.output(0).numel(), g_private);
}
