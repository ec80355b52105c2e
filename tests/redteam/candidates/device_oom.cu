// redteam_device_oom — resource exhaustion, CUDA relu: its first call cudaMallocs 1 GiB blocks
// until the device refuses (at most 1 TiB), keeps them all, then computes relu honestly.
// Expected: resource (the worker's device-memory cap stops it, or its peak is reported far
// above the baseline's); kbv and the GPU stay usable for the next candidate.
#include "redteam_common.cuh"

#include <vector>

namespace {
constexpr size_t kBlockBytes = size_t{1} << 30;
constexpr int kMaxBlocks = 1024;
bool g_hoarded = false;
std::vector<void*> g_hoard;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_device_oom")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_hoarded) {
    g_hoarded = true;
    for (int i = 0; i < kMaxBlocks; ++i) {
      void* block = nullptr;
      if (cudaMalloc(&block, kBlockBytes) != cudaSuccess) break;
      g_hoard.push_back(block);
    }
    cudaGetLastError();  // clear the out-of-memory error the last attempt left
    redteam::log("hoarded " + std::to_string(g_hoard.size()) + " GiB of device memory");
  }
  return redteam::launch_relu(call.input(0).data<float>(), call.output(0).data<float>(), call.output(0).numel(),
                              redteam::stream_of(call));
}
