// tests/cuda/gpu_presence.hpp — whether a usable CUDA device is there, for every GPU test
// binary (data, measure, the CUDA red-team): each skips with this reason when one is not.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace kbv::cuda::testing {

// Empty when a CUDA device is usable, else why not.
inline std::string why_no_cuda_device() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) return std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorString(status);
  if (devices == 0) return "no CUDA device: cudaGetDeviceCount returned 0";
  return "";
}

}  // namespace kbv::cuda::testing
