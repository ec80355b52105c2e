// data/poison.hpp — output poisoning on the device: every element set to kPoisonBits (a
// signalling NaN no arithmetic produces, verify/compare.hpp) before a call, and a count of the
// elements still holding it afterwards (never written by the candidate).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::cuda {

// Writes the bit pattern kPoisonBits into data[0..count) (as 32-bit integers, so nothing
// quiets the NaN on the way). Asynchronous on `stream`.
void poison_on_device(float* data, int64_t count, cudaStream_t stream);

// How many of data[0..count) hold exactly kPoisonBits. Synchronises `stream`.
int64_t count_poison_on_device(const float* data, int64_t count, cudaStream_t stream);

}  // namespace kbv::cuda
