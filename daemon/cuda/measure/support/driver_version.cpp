// daemon/cuda/measure/support/driver_version.cpp — the driver's version from /proc and the CUDA runtime.
#include "measure/support/driver_version.hpp"

#include <cuda_runtime_api.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "common/cuda_error.hpp"

namespace kbv::cuda {

std::string kernel_module_version(const std::string& proc_line) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 …", or with the open
  // module "… Open Kernel Module for x86_64  580.159.04  Release Build …".
  const std::string marker = "Kernel Module";
  const auto at = proc_line.find(marker);
  if (at == std::string::npos) return "";
  std::istringstream rest(proc_line.substr(at + marker.size()));
  for (std::string word; rest >> word;)
    if (std::isdigit(static_cast<unsigned char>(word[0]))) return word;
  return "";
}

std::string driver_version() {
  int cuda = 0;
  check(cudaDriverGetVersion(&cuda), "cudaDriverGetVersion");
  constexpr int kMajorFactor = 1000, kMinorFactor = 10;  // CUDA encodes 13.0 as 13000
  const std::string api = "CUDA " + std::to_string(cuda / kMajorFactor) + "." + std::to_string((cuda % kMajorFactor) / kMinorFactor);
  std::ifstream proc("/proc/driver/nvidia/version");
  std::string line;
  if (std::getline(proc, line))
    if (const std::string module = kernel_module_version(line); !module.empty()) return module + " (" + api + ")";
  return api;
}

}  // namespace kbv::cuda
