// sandbox/devices.cpp — enumerate device nodes under /dev.
#include "sandbox/devices.hpp"

#include <algorithm>
#include <string>

namespace kbv::sandbox {

std::vector<std::filesystem::path> standard_devices() {
  return {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};
}

std::vector<std::filesystem::path> cuda_devices() {
  std::vector<std::filesystem::path> devices;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", error))
    if (entry.path().filename().string().rfind("nvidia", 0) == 0) devices.push_back(entry.path());
  std::sort(devices.begin(), devices.end());
  return devices;
}

}  // namespace kbv::sandbox
