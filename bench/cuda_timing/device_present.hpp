// bench/cuda_timing/device_present.hpp — whether a CUDA device is there for a single-purpose mode
// of kbv_bench_cuda_timing, saying so on stderr when not (the ctests skip on that message).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>

namespace kbv::bench {

inline bool cuda_device_present() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) return true;
  std::fprintf(stderr, "kbv_bench_cuda_timing: no CUDA device\n");
  return false;
}

}  // namespace kbv::bench
