// daemon/cuda/measure/support/device_attributes.cpp — SM count and L2 size of the current device,
// cached per device and attribute.
#include "measure/support/device_attributes.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <string>

#include "measure/support/library_errors.hpp"

namespace kbv::cuda::measure {
namespace {

constexpr int kMaxDevices = 64;

// `attribute` of the current device; `cached` holds one value per device (0 = not asked yet).
int cached_attribute(std::array<std::atomic<int>, kMaxDevices>& cached, cudaDeviceAttr attribute, const char* name) {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  const bool cacheable = device >= 0 && device < kMaxDevices;
  if (cacheable) {
    const int known = cached[static_cast<size_t>(device)].load(std::memory_order_relaxed);
    if (known > 0) return known;
  }
  int value = 0;
  check(cudaDeviceGetAttribute(&value, attribute, device), (std::string("cudaDeviceGetAttribute(") + name + ")").c_str());
  if (cacheable) cached[static_cast<size_t>(device)].store(value, std::memory_order_relaxed);
  return value;
}

}  // namespace

int current_sm_count() {
  static std::array<std::atomic<int>, kMaxDevices> cached{};
  return cached_attribute(cached, cudaDevAttrMultiProcessorCount, "MultiProcessorCount");
}

size_t current_l2_bytes() {
  static std::array<std::atomic<int>, kMaxDevices> cached{};
  return static_cast<size_t>(cached_attribute(cached, cudaDevAttrL2CacheSize, "L2CacheSize"));
}

}  // namespace kbv::cuda::measure
