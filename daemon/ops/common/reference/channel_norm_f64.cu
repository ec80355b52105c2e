// daemon/ops/common/reference/channel_norm_f64.cu — the norms' fp64 device reference: each set
// is cut into pieces of at most kPieceElements, one block sums a piece; one thread per set adds
// its pieces in order (the mean); the same again for the squared deviations from the mean (the
// biased variance); then one thread per element normalises it. Splitting the sets keeps every SM
// busy on KernelBench's shapes (batchnorm: 64 sets of 2²⁴ elements).
#include "ops/common/reference/channel_norm_f64.hpp"

#include <algorithm>
#include <cmath>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/launch.cuh"
#include "ops/common/reference/axis_f64.cuh"

namespace kbv::ops::reference {
namespace {

using cuda::detail::global_thread_index;
using cuda::detail::grid_stride;

// Elements one block sums: 256 threads × 256 elements each.
constexpr int64_t kPieceElements = int64_t{1} << 16;

struct Pieces {
  int64_t per_set = 1;
  int64_t length = 0;  // elements per piece (the last one of a set may have fewer)
};

Pieces pieces_of(const ChannelSets& sets) {
  Pieces pieces;
  pieces.per_set = std::max<int64_t>(1, (sets.set_size() + kPieceElements - 1) / kPieceElements);
  pieces.length = (sets.set_size() + pieces.per_set - 1) / pieces.per_set;
  return pieces;
}

// partial[set · per_set + piece] = Σ over the piece of x, or of (x − mean[set])² when `stats`
// holds the means (stats[2·set]).
__global__ void sum_pieces(ChannelSets sets, Pieces pieces, const double* x, const double* stats,
                           double* partial) {
  const int64_t units = sets.count() * pieces.per_set;
  const int64_t segment_length = sets.segment_length();
  for (int64_t unit = blockIdx.x; unit < units; unit += gridDim.x) {
    const int64_t set = unit / pieces.per_set;
    const int64_t begin = unit % pieces.per_set * pieces.length;
    const int64_t end = begin + pieces.length < sets.set_size() ? begin + pieces.length : sets.set_size();
    const int64_t start = sets.set_start(set);
    const double mean = stats != nullptr ? stats[2 * set] : 0.0;
    double acc = 0.0;
    for (int64_t e = begin + threadIdx.x; e < end; e += blockDim.x) {
      const double value = x[start + e / segment_length * sets.segment_stride() + e % segment_length];
      acc += stats != nullptr ? (value - mean) * (value - mean) : value;
    }
    acc = block_sum(acc);
    if (threadIdx.x == 0) partial[unit] = acc;
  }
}

// stats[2·set] = mean (first pass), stats[2·set + 1] = 1/sqrt(var + eps) (second pass).
__global__ void finish_sets(ChannelSets sets, Pieces pieces, const double* partial, double eps, bool variance,
                            double* stats) {
  for (int64_t set = global_thread_index(); set < sets.count(); set += grid_stride()) {
    double sum = 0.0;
    for (int64_t piece = 0; piece < pieces.per_set; ++piece) sum += partial[set * pieces.per_set + piece];
    const double mean = sum / static_cast<double>(sets.set_size());
    if (variance)
      stats[2 * set + 1] = 1.0 / sqrt(mean + eps);  // `mean` of the squared deviations: the variance
    else
      stats[2 * set] = mean;
  }
}

__global__ void normalize(ChannelSets sets, const double* x, const double* weight, const double* bias,
                          const double* stats, double* y, int64_t total) {
  for (int64_t i = global_thread_index(); i < total; i += grid_stride()) {
    const int64_t set = sets.set_of(i);
    double value = (x[i] - stats[2 * set]) * stats[2 * set + 1];
    if (weight != nullptr) value *= weight[sets.channel_of(i)];
    if (bias != nullptr) value += bias[sets.channel_of(i)];
    y[i] = value;
  }
}

}  // namespace

void channel_norm_f64(const ChannelSets& sets, const double* x, const double* weight, const double* bias,
                      double eps, double* y, cudaStream_t stream) {
  const int64_t total = sets.batch * sets.channels * sets.spatial;
  if (total <= 0) return;
  using cuda::detail::grid_for;
  using cuda::detail::kBlockThreads;
  const Pieces pieces = pieces_of(sets);
  const int64_t units = sets.count() * pieces.per_set;
  auto partial = cuda::DeviceBuffer<double>::on_stream(static_cast<size_t>(units), stream);
  auto stats = cuda::DeviceBuffer<double>::on_stream(static_cast<size_t>(2 * sets.count()), stream);
  const unsigned unit_blocks = grid_for(units, 1);  // one block per piece, at most kMaxGridBlocks
  for (const bool variance : {false, true}) {
    sum_pieces<<<unit_blocks, kBlockThreads, 0, stream>>>(sets, pieces, x, variance ? stats.get() : nullptr,
                                                          partial.get());
    cuda::check_launch("norm reference sum kernel");
    finish_sets<<<grid_for(sets.count()), kBlockThreads, 0, stream>>>(sets, pieces, partial.get(), eps,
                                                                      variance, stats.get());
    cuda::check_launch("norm reference statistics kernel");
  }
  normalize<<<grid_for(total), kBlockThreads, 0, stream>>>(sets, x, weight, bias, stats.get(), y, total);
  cuda::check_launch("norm reference normalize kernel");
}

}  // namespace kbv::ops::reference
