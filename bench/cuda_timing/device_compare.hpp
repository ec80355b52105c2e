// bench/cuda_timing/device_compare.hpp — the largest difference between two device buffers
// (device_compare.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace kbv::bench {

// max |a[i] − b[i]| over `count` floats (infinity where either is NaN), synchronizing `stream`.
float max_abs_difference(const float* a, const float* b, size_t count, cudaStream_t stream);

}  // namespace kbv::bench
