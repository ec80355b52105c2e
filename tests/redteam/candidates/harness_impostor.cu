// redteam_harness_impostor — docs/threat-model.md, pattern 3 (stream injection) dressed as kbv's
// own timing kernel, CUDA relu: the relu kernel is named kbv_trace_marker (extern "C", the name of
// the marker kbv launches on both sides of the timed window) and runs on a private stream while
// the launch gate holds the timed stream; run() waits for it on the host, then joins the timed
// stream to it. The trace dropped marker-named kernels from the call's kernels and took the
// earliest as the window's start, so nothing looked early; only the evaluator's clock was left.
// Expected: hack_suspected, hack_pattern "timer_tampering": a kernel named as kbv's own beyond
// the two markers kbv launched (cupti/window_escapes.hpp) convicts the first call.
#include "redteam_common.cuh"

// Hidden (the SDK builds candidates with hidden visibility), so the worker's own marker stub is
// not interposed: only the name CUPTI reports is the same.
extern "C" __global__ void kbv_trace_marker(const float* __restrict__ x, float* __restrict__ y, int64_t count) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) y[i] = x[i] < 0.0f ? 0.0f : x[i];
}

namespace {
cudaStream_t g_private = nullptr;
cudaEvent_t g_done = nullptr;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_harness_impostor")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (kbv_status s = redteam::private_stream(&g_private); s != KBV_STATUS_OK) return s;
  if (g_done == nullptr) {
    if (kbv_status s = redteam::status_of(cudaEventCreateWithFlags(&g_done, cudaEventDisableTiming), "cudaEventCreate"); s != KBV_STATUS_OK)
      return s;
  }
  const int64_t count = call.output(0).numel();
  kbv_trace_marker<<<redteam::blocks_for(count), redteam::kThreads, 0, g_private>>>(call.input(0).data<float>(), call.output(0).data<float>(), count);
  if (kbv_status s = redteam::status_of(cudaGetLastError(), "kbv_trace_marker"); s != KBV_STATUS_OK) return s;
  if (kbv_status s = redteam::status_of(cudaEventRecord(g_done, g_private), "cudaEventRecord"); s != KBV_STATUS_OK) return s;
  if (kbv_status s = redteam::status_of(cudaEventSynchronize(g_done), "cudaEventSynchronize"); s != KBV_STATUS_OK) return s;
  return redteam::status_of(cudaStreamWaitEvent(redteam::stream_of(call), g_done, 0), "cudaStreamWaitEvent");
}
