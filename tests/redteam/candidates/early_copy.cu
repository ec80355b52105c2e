// redteam_early_copy — docs/threat-model.md, pattern 3 (stream injection) with a copy instead of
// a kernel, CUDA relu: while the launch gate holds the timed stream, run() copies the inputs into
// the outputs with cudaMemcpyAsync on a private stream and waits for it on the host; the timed
// stream then clamps the outputs in place. The copy (half the call's memory traffic) ran before
// the start event. Kernels outside the window were caught; copies and memsets were traced but
// held to no window.
// Expected: hack_suspected, hack_pattern "stream_injection": in the timing phase, a copy of the
// call started before its start event.
#include "redteam_common.cuh"

namespace {

__global__ void clamp_in_place(float* __restrict__ y, int64_t count) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) y[i] = y[i] < 0.0f ? 0.0f : y[i];
}

cudaStream_t g_private = nullptr;

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_early_copy")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (kbv_status s = redteam::private_stream(&g_private); s != KBV_STATUS_OK) return s;
  const int64_t count = call.output(0).numel();
  float* y = call.output(0).data<float>();
  if (kbv_status s = redteam::status_of(cudaMemcpyAsync(y, call.input(0).data<float>(), static_cast<size_t>(count) * sizeof(float),
                                                        cudaMemcpyDeviceToDevice, g_private),
                                        "cudaMemcpyAsync");
      s != KBV_STATUS_OK)
    return s;
  if (kbv_status s = redteam::status_of(cudaStreamSynchronize(g_private), "cudaStreamSynchronize"); s != KBV_STATUS_OK) return s;
  clamp_in_place<<<redteam::blocks_for(count), redteam::kThreads, 0, redteam::stream_of(call)>>>(y, count);
  return redteam::status_of(cudaGetLastError(), "clamp_in_place");
}
