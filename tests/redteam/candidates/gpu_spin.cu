// redteam_gpu_spin — a kernel that never ends (busy spin on the GPU), CUDA relu: launches a
// kernel that polls a device flag nobody sets.
// Expected: timeout (kbv kills the worker at --timeout-s; the GPU stays usable afterwards).
#include "redteam_common.cuh"

namespace {
__device__ volatile int g_release = 0;

__global__ void spin_forever() {
  while (g_release == 0) {
  }
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_gpu_spin")

kbv_status kbv_candidate_run(kbv::Call& call) {
  spin_forever<<<1, 1, 0, redteam::stream_of(call)>>>();
  return redteam::status_of(cudaGetLastError(), "spin_forever");
}
