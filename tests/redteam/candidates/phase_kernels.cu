// redteam_phase_kernels — docs/threat-model.md, pattern 12 (phase detection) on the CUDA device, the variant
// that output checks cannot see: correct relu throughout, but from call 25 (just past kbv's
// correctness phase, see phase_detection.cpp) it launches a different kernel — the stand-in for
// a timing-phase code path that, say, skips work a hidden input would need.
// Expected: hack_suspected / phase_detection (the worker's CUPTI trace: a timed call must launch
// a kernel set that a correctness call on the same family launched).
#include "redteam_common.cuh"

namespace {

constexpr uint64_t kFirstKernelCalls = 24;
uint64_t g_calls = 0;

// The same element function under another name: only the kernel set changes.
__global__ void timing_phase_relu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t count) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    y[i] = x[i] < 0.0f ? 0.0f : x[i];
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_phase_kernels")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  if (g_calls++ < kFirstKernelCalls) return redteam::launch_relu(x, y, count, redteam::stream_of(call));
  timing_phase_relu_kernel<<<redteam::blocks_for(count), redteam::kThreads, 0, redteam::stream_of(call)>>>(x, y, count);
  return redteam::status_of(cudaGetLastError(), "timing_phase_relu_kernel");
}
