// ops/sdpa/baseline.hpp — sdpa's CUDA baseline step with an explicit chunk budget for its scores,
// for tests that force many chunks.
#pragma once

#include <cstdint>
#include <memory>

#include "measure/baseline/node_step.hpp"

namespace kbv::ops::sdpa {

// fp32 scores (and as many probabilities) of one chunk of batches take at most this much each:
// KernelBench's L1 #97 (32×32 batches of 512×512 fp32 scores, exactly 1 GiB) runs as one chunk,
// as PyTorch's math path would hold them.
constexpr int64_t kBaselineScoreChunkBytes = int64_t{1} << 30;

// The step of an sdpa node whose chunks of batches hold at most `score_chunk_bytes` of scores
// (one batch at least). Throws std::invalid_argument (OpError for shapes sdpa refuses).
std::unique_ptr<cuda::measure::NodeStep> make_sdpa_step(const cuda::measure::NodeContext& node,
                                                        cuda::measure::LibraryContext& context,
                                                        int64_t score_chunk_bytes);

}  // namespace kbv::ops::sdpa
