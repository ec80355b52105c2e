// ops/common/baseline/sum_terms_f32.hpp — the losses' CUDA fp32 baseline, its launch geometry and
// second half (ops/common/baseline/sum_terms_f32.cuh has the first).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

namespace kbv::ops::baseline {

// Threads per block of the partial-sum pass, and the blocks each SM keeps resident: sm_90 holds
// 2048 threads per SM (CUDA C++ Programming Guide, "Compute Capabilities"), eight such blocks.
constexpr int kSumThreads = 256;
constexpr int kSumBlocksPerSm = 8;

// Blocks of the partial-sum pass over `count` terms: one wave over the SMs, fewer for short sums.
inline unsigned sum_blocks(int64_t count, int sm_count) {
  const int64_t needed = (count + kSumThreads - 1) / kSumThreads;
  return static_cast<unsigned>(std::clamp<int64_t>(needed, 1, int64_t{sm_count} * kSumBlocksPerSm));
}

// *out = (Σ partials[0 .. blocks)) / divisor, one block in a fixed order; asynchronous on `stream`.
void finish_sum_f32(const float* partials, unsigned blocks, float divisor, float* out,
                    cudaStream_t stream);

}  // namespace kbv::ops::baseline
