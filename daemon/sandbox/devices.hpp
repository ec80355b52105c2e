// sandbox/devices.hpp — the device nodes a worker may open: harmless standard ones, and CUDA's.
#pragma once

#include <filesystem>
#include <vector>

namespace kbv::sandbox {

// /dev/null, zero, full, random, urandom: no state beyond the process.
std::vector<std::filesystem::path> standard_devices();

// Every /dev/nvidia* node present (nvidiactl, nvidia0…, nvidia-uvm, nvidia-uvm-tools,
// nvidia-modeset, the nvidia-caps directory for MIG): CUDA opens them read-write and ioctls.
std::vector<std::filesystem::path> cuda_devices();

}  // namespace kbv::sandbox
