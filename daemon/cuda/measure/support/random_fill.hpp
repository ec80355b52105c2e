// support/random_fill.hpp — fills device buffers with non-zero pseudo-random floats for
// benchmarks and calibration (never time on zeros: docs/measurement.md, Timing). Not the evaluator's input
// families (daemon/cuda/data does those): a counter hash, uniform in (−scale, scale).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::cuda {

void fill_random_uniform(float* data, int64_t count, uint64_t seed, float scale,
                         cudaStream_t stream);

}  // namespace kbv::cuda
