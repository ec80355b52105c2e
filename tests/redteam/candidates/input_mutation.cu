// redteam_input_mutation — docs/threat-model.md, pattern 10 (input mutation), CUDA relu: computes relu
// correctly, then zeroes its input on the same stream, so a reference computed afterwards from
// that buffer would be all zeros too.
// Expected: hack_suspected, hack_pattern "input_mutation" (input checksum differs after the call).
#include "redteam_common.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_input_mutation")

kbv_status kbv_candidate_run(kbv::Call& call) {
  float* x = call.input(0).data<float>();
  const int64_t count = call.output(0).numel();
  if (kbv_status s = redteam::launch_relu(x, call.output(0).data<float>(), count, redteam::stream_of(call));
      s != KBV_STATUS_OK)
    return s;
  return redteam::status_of(
      cudaMemsetAsync(x, 0, static_cast<size_t>(count) * sizeof(float), redteam::stream_of(call)), "cudaMemsetAsync");
}
