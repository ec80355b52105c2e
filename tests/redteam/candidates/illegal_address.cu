// redteam_illegal_address — a CUDA relu whose kernel writes through a wild device pointer: the
// illegal address is sticky, so the worker's CUDA context is lost for the rest of the process.
// Expected: crash; the detail names the CUDA error (cudaErrorIllegalAddress) and the call that
// reported it (the worker's cudaStreamSynchronize after run() returned), and the GPU stays
// usable for the next candidate.
#include "redteam_common.cuh"

namespace {
// Far outside any allocation on any current GPU, and aligned.
float* const kWildPointer = reinterpret_cast<float*>(uintptr_t{1} << 46);

__global__ void wild_write(float* target) { target[threadIdx.x] = 1.0f; }
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_illegal_address")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const cudaStream_t stream = redteam::stream_of(call);
  if (kbv_status s = redteam::launch_relu(call.input(0).data<float>(), call.output(0).data<float>(), call.output(0).numel(), stream);
      s != KBV_STATUS_OK)
    return s;
  wild_write<<<1, 32, 0, stream>>>(kWildPointer);
  return redteam::status_of(cudaGetLastError(), "wild_write");
}
