// redteam_sync_in_run — not a hack: an honest relu whose run() ends with
// cudaStreamSynchronize on the call's stream, a pattern real candidates use. It waits for the
// device while the launch gate holds the stream, so the gate times out on its first calls and
// the worker times the rest without it.
// Expected: pass, no flag, environment.launch_gate "off after …".
#include "redteam_common.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_sync_in_run")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const cudaStream_t stream = redteam::stream_of(call);
  if (kbv_status s = redteam::launch_relu(call.input(0).data<float>(), call.output(0).data<float>(),
                                          call.output(0).numel(), stream);
      s != KBV_STATUS_OK)
    return s;
  return redteam::status_of(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}
