// daemon/measure/support/sm_count.cpp — the SM count of the current device, cached per device.
#include "measure/support/sm_count.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>

#include "measure/support/library_errors.hpp"

namespace kbv::cuda::measure {

int current_sm_count() {
  constexpr int kMaxDevices = 64;
  static std::array<std::atomic<int>, kMaxDevices> cached{};  // 0 = not asked yet
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  const bool cacheable = device >= 0 && device < kMaxDevices;
  if (cacheable) {
    const int known = cached[static_cast<size_t>(device)].load(std::memory_order_relaxed);
    if (known > 0) return known;
  }
  int count = 0;
  check(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute(MultiProcessorCount)");
  if (cacheable) cached[static_cast<size_t>(device)].store(count, std::memory_order_relaxed);
  return count;
}

}  // namespace kbv::cuda::measure
