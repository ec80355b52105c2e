// ops/sdpa/reference.hpp — sdpa's CUDA fp64 reference with an explicit chunk budget for its
// scores, for tests that force many chunks.
#pragma once

#include <cstdint>

#include "data/reference_context.hpp"
#include "ops/op.hpp"

namespace kbv::ops::sdpa {

// fp64 scores of one chunk of batches take at most this much: KernelBench's 32×32×512×1024
// (L1 #97, 2 GiB of fp64 scores) runs in two chunks beside its 16 GiB of fp64 inputs and output.
constexpr int64_t kScoreChunkBytes = int64_t{1} << 30;

// sdpa on device buffers (as kbv::cuda::run_op_f64_device) whose chunks of batches hold at most
// `score_chunk_bytes` of scores (one batch at least); validates like the host op and throws
// OpError otherwise.
void sdpa_f64_device(const OpArgs<double>& args, const cuda::ReferenceContext& context,
                     int64_t score_chunk_bytes);

}  // namespace kbv::ops::sdpa
