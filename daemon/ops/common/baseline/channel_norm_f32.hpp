// ops/common/baseline/channel_norm_f32.hpp — kbv's fp32 CUDA kernels for the norms PyTorch runs
// with its own kernels: groupnorm (native_group_norm: RowwiseMoments then the affine),
// instancenorm (batch_norm on [1, N·C, *], whose native kernels collect Welford statistics per
// channel then normalise) and batchnorm where PyTorch does not call cuDNN (no weight or bias, a
// rank-2 input, ≥ 2³¹ elements). Welford moments of each statistics set
// (ops/common/channel_sets.hpp) over pieces of it, combined per set (Chan et al.), then one pass
// normalising every element with its set's mean and 1/σ and its channel's weight and bias.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "ops/common/channel_sets.hpp"

namespace kbv::ops::baseline {

// How the moments kernel covers the sets (host code, chosen once per node).
struct ChannelNormPlan {
  // Columns: a batchnorm whose segments are short (a rank-2 [N, C] input: one element each) is
  // read as the matrix [N, C·S], one thread per column over a chunk of rows, so a warp reads
  // adjacent addresses. Segments: one block per piece of a segment.
  bool columns = false;
  int64_t pieces_per_segment = 1, piece_length = 0;  // segments
  int threads = 256;                                 // segments: block size
  int64_t row_chunks = 1, rows_per_chunk = 0;        // columns
  int64_t partials_per_set = 1;
};

ChannelNormPlan plan_channel_norm(const ChannelSets& sets, int sm_count);

// The node's step: its input 0 is x, inputs 1 and 2 (when given) weight and bias, attribute eps;
// `what` says whose kernels these stand for, for describe().
std::unique_ptr<cuda::measure::NodeStep> make_channel_norm_step(const cuda::measure::NodeContext& node,
                                                               cuda::measure::LibraryContext& context,
                                                               const ChannelSets& sets, std::string what);

}  // namespace kbv::ops::baseline
