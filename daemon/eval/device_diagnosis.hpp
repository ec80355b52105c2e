// eval/device_diagnosis.hpp — why the cuda device is unavailable, in words a newcomer can act
// on: no NVIDIA driver, a driver that sees no GPU, CUDA_VISIBLE_DEVICES hiding every GPU, or a
// driver older than kbv's CUDA runtime. CUDA itself says "CUDA driver version is insufficient
// for CUDA runtime version" when there is no driver at all.
#pragma once

#include <optional>
#include <string>

namespace kbv::eval {

// What this machine shows of the NVIDIA driver, read without starting CUDA.
struct CudaMachineFacts {
  bool kernel_module = false;      // /proc/driver/nvidia/version exists
  std::string driver_version;      // from that file ("580.159.04"), "" when unknown
  bool driver_library = false;     // libcuda.so.1 loads
  int gpus = -1;                   // GPUs the driver lists in /proc/driver/nvidia/gpus; -1 unknown
  std::optional<std::string> visible_devices;  // CUDA_VISIBLE_DEVICES, when set
};

CudaMachineFacts inspect_cuda_machine();

// One sentence with its fix, followed by CUDA's own words (`cuda_error`) in brackets; CUDA's
// words alone when the facts explain nothing.
std::string explain_cuda_unavailable(const std::string& cuda_error, const CudaMachineFacts& facts);

}  // namespace kbv::eval
