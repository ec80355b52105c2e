// daemon/ops/common/baseline/channel_norm_f32.cu — the norms' fp32 CUDA baseline kernels: Welford
// moments per piece of each statistics set, their combination per set, the normalisation.
#include "ops/common/baseline/channel_norm_f32.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "common/cuda_error.hpp"
#include "ops/common/baseline/device_math.cuh"

namespace kbv::ops::baseline {

namespace {
// Blocks wanted in flight (8 of 256 threads fill an SM's 2048 thread slots on sm_90, which
// memory-bound code needs to hide DRAM latency) before sets are split into pieces.
constexpr int64_t kBlocksPerSm = 8;
// A piece shorter than this spends more on combining moments than it saves (as layernorm's).
constexpr int64_t kMinPieceLength = 16384;
// Batchnorm segments shorter than a warp are read as columns.
constexpr int64_t kColumnsBelowSegmentLength = 32;
// Rows per column chunk at least: fewer make more partial moments than elements.
constexpr int64_t kMinRowsPerChunk = 32;
// Segments shorter than a 256-thread block's one pass take one warp, as PyTorch's group norm
// does for small groups (RowwiseMomentsCUDAKernel with warp_size threads).
constexpr int64_t kWarpBlockBelowSegmentLength = 1024;
constexpr int kThreads = 256;
constexpr int kColumnThreads = 256;
constexpr int64_t kMaxGridY = 65535;
constexpr int64_t kMaxGridX = 2147483647;
}  // namespace

ChannelNormPlan plan_channel_norm(const ChannelSets& sets, int sm_count) {
  ChannelNormPlan plan;
  const int64_t wanted = kBlocksPerSm * std::max(sm_count, 1);
  if (sets.across_batch && sets.segment_length() < kColumnsBelowSegmentLength) {
    plan.columns = true;
    const int64_t columns = sets.channels * sets.spatial;
    const int64_t tiles = (columns + kColumnThreads - 1) / kColumnThreads;
    const int64_t most = std::max<int64_t>(1, sets.batch / kMinRowsPerChunk);
    plan.row_chunks = std::clamp<int64_t>((wanted + tiles - 1) / tiles, 1, std::min(most, kMaxGridY));
    plan.rows_per_chunk = (sets.batch + plan.row_chunks - 1) / plan.row_chunks;
    plan.row_chunks = (sets.batch + plan.rows_per_chunk - 1) / plan.rows_per_chunk;
    plan.partials_per_set = sets.spatial * plan.row_chunks;
    return plan;
  }
  const int64_t length = sets.segment_length();
  const int64_t segments = sets.count() * sets.segments();
  const int64_t most = std::max<int64_t>(1, length / kMinPieceLength);
  plan.pieces_per_segment = std::clamp<int64_t>((wanted + segments - 1) / segments, 1, most);
  plan.piece_length = ((length + plan.pieces_per_segment - 1) / plan.pieces_per_segment + 3) / 4 * 4;
  plan.pieces_per_segment = (length + plan.piece_length - 1) / plan.piece_length;
  plan.threads = length < kWarpBlockBelowSegmentLength ? device::kWarpSize : kThreads;
  plan.partials_per_set = sets.segments() * plan.pieces_per_segment;
  return plan;
}

namespace {

using device::Moments;

struct SetStats {
  float mean;
  float rstd;
};

// Moments of [begin, end) of `x` with this block's threads.
template <bool kVector>
__device__ Moments range_moments(const float* __restrict__ x, int64_t begin, int64_t end) {
  Moments acc = device::moments_empty();
  if (kVector) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
#pragma unroll 4
    for (int64_t i = begin / 4 + threadIdx.x; i < end / 4; i += blockDim.x)
      acc = device::moments_combine(acc, device::moments_of4(x4[i]));
  } else {
    for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x)
      acc = device::moments_combine(acc, Moments{1.f, x[i], 0.f});
  }
  return acc;
}

// partial[set · partials_per_set + segment · pieces + piece]: one block per piece of a segment.
template <bool kVector>
__global__ void segment_moments_kernel(ChannelSets sets, ChannelNormPlan plan, const float* __restrict__ x,
                                       Moments* __restrict__ partial) {
  __shared__ Moments shared[device::kMaxWarpsPerBlock];
  const int64_t units = sets.count() * plan.partials_per_set;
  for (int64_t unit = blockIdx.x; unit < units; unit += gridDim.x) {
    const int64_t set = unit / plan.partials_per_set;
    const int64_t segment = unit % plan.partials_per_set / plan.pieces_per_segment;
    const int64_t begin = unit % plan.pieces_per_segment * plan.piece_length;
    const int64_t end =
        begin + plan.piece_length < sets.segment_length() ? begin + plan.piece_length : sets.segment_length();
    const float* base = x + sets.set_start(set) + segment * sets.segment_stride();
    const Moments m = device::block_moments(range_moments<kVector>(base, begin, end), shared);
    if (threadIdx.x == 0) partial[unit] = m;
  }
}

// x as [N, C·S]: column k (channel k / S) over a chunk of rows; partial[k · row_chunks + chunk],
// so that set c's partials are contiguous.
__global__ void column_moments_kernel(ChannelSets sets, ChannelNormPlan plan, const float* __restrict__ x,
                                      Moments* __restrict__ partial) {
  const int64_t columns = sets.channels * sets.spatial;
  const int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= columns) return;
  for (int64_t chunk = blockIdx.y; chunk < plan.row_chunks; chunk += gridDim.y) {
    const int64_t first = chunk * plan.rows_per_chunk;
    const int64_t last = first + plan.rows_per_chunk < sets.batch ? first + plan.rows_per_chunk : sets.batch;
    Moments acc = device::moments_empty();
    for (int64_t row = first; row < last; ++row)
      acc = device::moments_combine(acc, Moments{1.f, x[row * columns + k], 0.f});
    partial[k * plan.row_chunks + chunk] = acc;
  }
}

__global__ void finish_sets_kernel(int64_t sets, int64_t per_set, const Moments* __restrict__ partial,
                                   float eps, SetStats* __restrict__ stats) {
  __shared__ Moments shared[device::kMaxWarpsPerBlock];
  for (int64_t set = blockIdx.x; set < sets; set += gridDim.x) {
    Moments acc = device::moments_empty();
    for (int64_t p = threadIdx.x; p < per_set; p += blockDim.x)
      acc = device::moments_combine(acc, partial[set * per_set + p]);
    const Moments m = device::block_moments(acc, shared);
    if (threadIdx.x == 0) stats[set] = {m.mean, rsqrtf(m.m2 / m.count + eps)};
  }
}

// y = x·scale + shift, scale = rstd·weight[c], shift = bias[c] − mean·scale (weight and bias may
// be null). Vector: four consecutive elements share a set and a channel (spatial % 4 == 0).
template <bool kVector>
__global__ void apply_kernel(ChannelSets sets, const float* __restrict__ x, const float* __restrict__ weight,
                             const float* __restrict__ bias, const SetStats* __restrict__ stats,
                             float* __restrict__ y, int64_t total) {
  const int64_t width = kVector ? 4 : 1;
  const int64_t items = total / width;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t item = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; item < items;
       item += step) {
    const int64_t i = item * width;
    const SetStats s = stats[sets.set_of(i)];
    const int64_t c = sets.channel_of(i);
    const float scale = weight != nullptr ? s.rstd * weight[c] : s.rstd;
    const float shift = (bias != nullptr ? bias[c] : 0.f) - s.mean * scale;
    if (kVector) {
      const float4 v = reinterpret_cast<const float4*>(x)[item];
      reinterpret_cast<float4*>(y)[item] =
          make_float4(v.x * scale + shift, v.y * scale + shift, v.z * scale + shift, v.w * scale + shift);
    } else {
      y[i] = x[i] * scale + shift;
    }
  }
}

unsigned blocks_for(int64_t items, int threads, int sm_count) {
  constexpr int64_t kResidentBlocksPerSm = 32;  // the grid-stride loop covers the rest
  return static_cast<unsigned>(
      std::clamp<int64_t>((items + threads - 1) / threads, 1, kResidentBlocksPerSm * std::max(sm_count, 1)));
}

class ChannelNormStep final : public cuda::measure::NodeStep {
 public:
  ChannelNormStep(const ChannelSets& sets, float eps, bool affine, cuda::measure::LibraryContext& context,
                  std::string what)
      : sets_(sets),
        plan_(plan_channel_norm(sets, context.sm_count())),
        eps_(eps),
        affine_(affine),
        context_(context),
        what_(std::move(what)) {
    partial_bytes_ = static_cast<size_t>(sets_.count() * plan_.partials_per_set) * sizeof(Moments);
    partial_bytes_ = (partial_bytes_ + alignof(SetStats) - 1) / alignof(SetStats) * alignof(SetStats);
    context_.reserve_scratch(partial_bytes_ + static_cast<size_t>(sets_.count()) * sizeof(SetStats));
  }

  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    const int64_t total = sets_.batch * sets_.channels * sets_.spatial;
    if (total == 0) return;
    auto* partial = static_cast<Moments*>(context_.scratch());
    auto* stats = reinterpret_cast<SetStats*>(static_cast<char*>(context_.scratch()) + partial_bytes_);
    const float* x = in[0];
    if (plan_.columns) {
      const int64_t columns = sets_.channels * sets_.spatial;
      const dim3 grid(
          static_cast<unsigned>(std::min((columns + kColumnThreads - 1) / kColumnThreads, kMaxGridX)),
          static_cast<unsigned>(std::min(plan_.row_chunks, kMaxGridY)));
      column_moments_kernel<<<grid, kColumnThreads, 0, stream>>>(sets_, plan_, x, partial);
    } else {
      const auto units = static_cast<unsigned>(std::min(sets_.count() * plan_.partials_per_set, kMaxGridX));
      if (sets_.segment_length() % 4 == 0 && device::aligned16(x))
        segment_moments_kernel<true><<<units, plan_.threads, 0, stream>>>(sets_, plan_, x, partial);
      else
        segment_moments_kernel<false><<<units, plan_.threads, 0, stream>>>(sets_, plan_, x, partial);
    }
    cuda::check_launch("kbv norm moments kernel");
    finish_sets_kernel<<<static_cast<unsigned>(std::min(sets_.count(), kMaxGridX)), kThreads, 0, stream>>>(
        sets_.count(), plan_.partials_per_set, partial, eps_, stats);
    cuda::check_launch("kbv norm statistics kernel");
    const float* weight = affine_ ? in[1] : nullptr;
    const float* bias = affine_ ? in[2] : nullptr;
    if (sets_.spatial % 4 == 0 && device::aligned16(x) && device::aligned16(out))
      apply_kernel<true><<<blocks_for(total / 4, kThreads, context_.sm_count()), kThreads, 0, stream>>>(
          sets_, x, weight, bias, stats, out, total);
    else
      apply_kernel<false><<<blocks_for(total, kThreads, context_.sm_count()), kThreads, 0, stream>>>(
          sets_, x, weight, bias, stats, out, total);
    cuda::check_launch("kbv norm apply kernel");
  }

  std::string describe() const override {
    return "kbv Welford norm kernels (" + what_ + ") sets=" + std::to_string(sets_.count()) + " of " +
           std::to_string(sets_.set_size()) +
           (plan_.columns ? " read as columns in " + std::to_string(plan_.row_chunks) + " row chunks"
                          : " in " + std::to_string(plan_.partials_per_set) + " pieces each") +
           (affine_ ? ", affine" : "");
  }

 private:
  ChannelSets sets_;
  ChannelNormPlan plan_;
  float eps_;
  bool affine_;
  cuda::measure::LibraryContext& context_;
  std::string what_;
  size_t partial_bytes_ = 0;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_channel_norm_step(const cuda::measure::NodeContext& node,
                                                                cuda::measure::LibraryContext& context,
                                                                const ChannelSets& sets, std::string what) {
  return std::make_unique<ChannelNormStep>(sets, static_cast<float>(node.attr("eps")),
                                           node.input_shapes.size() == 3, context, std::move(what));
}

}  // namespace kbv::ops::baseline
