// sandbox/address_space.cpp — the CUDA worker's address-space limit from its device's memory,
// and this process's mapped address space (VmSize).
#include "sandbox/address_space.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kBytesPerKiB = 1024;  // /proc/self/status reports VmSize in kB (KiB)

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return a > kMax - b ? kMax : a + b; }
std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b) { return b != 0 && a > kMax / b ? kMax : a * b; }

}  // namespace

std::uint64_t cuda_worker_address_space_bytes(std::uint64_t mapped_bytes, std::uint64_t device_memory_bytes) {
  const std::uint64_t device_multiple = kPoolsCovered * kPoolReservationFactor + 1;  // pools, then device mappings
  std::uint64_t limit = saturating_add(mapped_bytes, saturating_multiply(device_multiple, device_memory_bytes));
  limit = saturating_add(limit, kHostHeadroomBytes);
  return limit < kCudaMinAddressSpaceBytes ? kCudaMinAddressSpaceBytes : limit;
}

std::optional<std::uint64_t> mapped_address_space_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmSize:", 0) != 0) continue;
    std::istringstream fields(line.substr(7));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * kBytesPerKiB;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace kbv::sandbox
