// daemon/ops/layernorm/baseline.cu — layernorm's CUDA baseline: layer normalisation of rows with
// Welford moments in fp32, y = (x - mean) * rsqrt(var + eps) * weight + bias, var biased (as
// torch.nn.LayerNorm). Enough rows: one fused kernel, one block per row. Few long rows (16 rows
// of 4M in KernelBench's LayerNorm): a moments kernel over row chunks, then a kernel that
// combines the row's partial moments and normalises its chunk — PyTorch likewise runs
// RowwiseMoments and LayerNormForward as two kernels on its non-vectorised path.
#include "ops/layernorm/baseline.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "common/cuda_error.hpp"
#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/device_math.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::layernorm {

namespace {
// Blocks wanted per SM before long rows are split: 8 blocks of 256 threads fill an SM's
// 2048 thread slots (sm_90), which memory-bound code needs to hide DRAM latency.
constexpr int64_t kLayerNormBlocksPerSm = 8;
// Rows at least this many times the SM count fill the GPU one block per row.
constexpr int64_t kLayerNormRowsPerSmForFused = 2;
// A chunk shorter than this spends more on combining partial moments than it saves.
constexpr int64_t kLayerNormMinChunkCols = 16384;
constexpr int64_t kPartialFloats = 3;  // mean, m2, count
}  // namespace

LayerNormGeometry plan_layernorm(int64_t rows, int64_t cols, int sm_count) {
  LayerNormGeometry geometry;
  geometry.rows = rows;
  geometry.cols = cols;
  const int64_t sms = std::max(sm_count, 1);
  int64_t chunks = 1;
  if (rows < kLayerNormRowsPerSmForFused * sms) {
    const int64_t wanted = (kLayerNormBlocksPerSm * sms + rows - 1) / rows;
    const int64_t most = std::max<int64_t>(1, cols / kLayerNormMinChunkCols);
    chunks = std::clamp<int64_t>(wanted, 1, most);
  }
  int64_t chunk_cols = (cols + chunks - 1) / chunks;
  chunk_cols = (chunk_cols + 3) / 4 * 4;
  geometry.chunk_cols = chunk_cols;
  geometry.chunks = (cols + chunk_cols - 1) / chunk_cols;
  return geometry;
}

size_t layernorm_scratch_bytes(const LayerNormGeometry& geometry) {
  if (geometry.chunks <= 1) return 0;
  return static_cast<size_t>(geometry.rows * geometry.chunks * kPartialFloats) * sizeof(float);
}


namespace {

using namespace baseline::device;

constexpr int kThreads = 256;
constexpr unsigned kMaxGridY = 65535;

// Moments of x[begin, end) with this block's threads.
template <bool kVector>
__device__ Moments chunk_moments(const float* __restrict__ x, int64_t begin, int64_t end) {
  Moments acc = moments_empty();
  if (kVector) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
#pragma unroll 4
    for (int64_t i = begin / 4 + threadIdx.x; i < end / 4; i += blockDim.x)
      acc = moments_combine(acc, moments_of4(x4[i]));
  } else {
    for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x)
      acc = moments_combine(acc, Moments{1.f, x[i], 0.f});
  }
  return acc;
}

template <bool kVector>
__device__ void normalize_chunk(const float* __restrict__ x, const float* __restrict__ weight,
                                const float* __restrict__ bias, float* __restrict__ y,
                                int64_t begin, int64_t end, float mean, float rstd) {
  if (kVector) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    const float4* w4 = reinterpret_cast<const float4*>(weight);
    const float4* b4 = reinterpret_cast<const float4*>(bias);
    for (int64_t i = begin / 4 + threadIdx.x; i < end / 4; i += blockDim.x) {
      const float4 v = x4[i];
      float4 r = make_float4((v.x - mean) * rstd, (v.y - mean) * rstd, (v.z - mean) * rstd,
                             (v.w - mean) * rstd);
      if (weight) {
        const float4 w = w4[i];
        r = make_float4(r.x * w.x, r.y * w.y, r.z * w.z, r.w * w.w);
      }
      if (bias) {
        const float4 b = b4[i];
        r = make_float4(r.x + b.x, r.y + b.y, r.z + b.z, r.w + b.w);
      }
      y4[i] = r;
    }
  } else {
    for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
      float r = (x[i] - mean) * rstd;
      if (weight) r *= weight[i];
      if (bias) r += bias[i];
      y[i] = r;
    }
  }
}

template <bool kVector>
__global__ void layernorm_fused_kernel(const float* __restrict__ x,
                                       const float* __restrict__ weight,
                                       const float* __restrict__ bias, float* __restrict__ y,
                                       int64_t rows, int64_t cols, float eps) {
  __shared__ Moments shared[kMaxWarpsPerBlock];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * cols;
    const Moments m = block_moments(chunk_moments<kVector>(xr, 0, cols), shared);
    const float rstd = rsqrtf(m.m2 / static_cast<float>(cols) + eps);
    normalize_chunk<kVector>(xr, weight, bias, y + row * cols, 0, cols, m.mean, rstd);
  }
}

// Grid (chunks, rows): partial[row][chunk] = moments of that chunk.
template <bool kVector>
__global__ void layernorm_moments_kernel(const float* __restrict__ x, Moments* partial,
                                         int64_t rows, int64_t cols, int64_t chunk_cols) {
  __shared__ Moments shared[kMaxWarpsPerBlock];
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * chunk_cols;
  const int64_t end = begin + chunk_cols < cols ? begin + chunk_cols : cols;
  for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const Moments m = block_moments(chunk_moments<kVector>(x + row * cols, begin, end), shared);
    if (threadIdx.x == 0) partial[row * gridDim.x + blockIdx.x] = m;
  }
}

// Grid (chunks, rows): combine the row's partials, normalise this chunk.
template <bool kVector>
__global__ void layernorm_apply_kernel(const float* __restrict__ x,
                                       const float* __restrict__ weight,
                                       const float* __restrict__ bias, float* __restrict__ y,
                                       const Moments* partial, int64_t rows, int64_t cols,
                                       int64_t chunk_cols, float eps) {
  __shared__ Moments shared[kMaxWarpsPerBlock];
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * chunk_cols;
  const int64_t end = begin + chunk_cols < cols ? begin + chunk_cols : cols;
  for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
    Moments acc = moments_empty();
    for (unsigned c = threadIdx.x; c < gridDim.x; c += blockDim.x)
      acc = moments_combine(acc, partial[row * gridDim.x + c]);
    const Moments m = block_moments(acc, shared);
    const float rstd = rsqrtf(m.m2 / static_cast<float>(cols) + eps);
    normalize_chunk<kVector>(x + row * cols, weight, bias, y + row * cols, begin, end, m.mean,
                             rstd);
  }
}

bool aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

// weight and bias may be null (no affine part).
void launch_layernorm(const LayerNormGeometry& g, float eps, const float* x, const float* weight,
                      const float* bias, float* y, void* scratch, cudaStream_t stream) {
  if (g.rows * g.cols == 0) return;
  const bool vector = g.cols % 4 == 0 && aligned(x) && aligned(y) &&
                      (weight == nullptr || aligned(weight)) && (bias == nullptr || aligned(bias));
  if (g.chunks <= 1) {
    constexpr int64_t kMaxBlocks = 2147483647;
    const auto blocks = static_cast<unsigned>(std::min(g.rows, kMaxBlocks));
    if (vector)
      layernorm_fused_kernel<true><<<blocks, kThreads, 0, stream>>>(x, weight, bias, y, g.rows,
                                                                    g.cols, eps);
    else
      layernorm_fused_kernel<false><<<blocks, kThreads, 0, stream>>>(x, weight, bias, y, g.rows,
                                                                     g.cols, eps);
    cuda::check_launch("kbv layernorm kernel");
    return;
  }
  auto* partial = static_cast<Moments*>(scratch);
  const dim3 grid(static_cast<unsigned>(g.chunks),
                  static_cast<unsigned>(std::min<int64_t>(g.rows, kMaxGridY)));
  if (vector)
    layernorm_moments_kernel<true><<<grid, kThreads, 0, stream>>>(x, partial, g.rows, g.cols,
                                                                  g.chunk_cols);
  else
    layernorm_moments_kernel<false><<<grid, kThreads, 0, stream>>>(x, partial, g.rows, g.cols,
                                                                   g.chunk_cols);
  cuda::check_launch("kbv layernorm moments kernel");
  if (vector)
    layernorm_apply_kernel<true><<<grid, kThreads, 0, stream>>>(x, weight, bias, y, partial,
                                                                g.rows, g.cols, g.chunk_cols, eps);
  else
    layernorm_apply_kernel<false><<<grid, kThreads, 0, stream>>>(x, weight, bias, y, partial,
                                                                 g.rows, g.cols, g.chunk_cols, eps);
  cuda::check_launch("kbv layernorm apply kernel");
}

class LayerNormStep final : public cuda::measure::NodeStep {
 public:
  LayerNormStep(LayerNormGeometry geometry, float eps, size_t inputs,
                cuda::measure::LibraryContext& context)
      : geometry_(geometry), eps_(eps), inputs_(inputs), context_(context) {
    context_.reserve_scratch(layernorm_scratch_bytes(geometry_));
  }
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_layernorm(geometry_, eps_, in[0], inputs_ > 1 ? in[1] : nullptr,
                     inputs_ > 2 ? in[2] : nullptr, out, context_.scratch(), stream);
  }
  std::string describe() const override {
    return "kbv layernorm (Welford) rows=" + std::to_string(geometry_.rows) +
           " cols=" + std::to_string(geometry_.cols) +
           (geometry_.chunks > 1 ? " split into " + std::to_string(geometry_.chunks) +
                                       " chunks (moments + apply kernels)"
                                 : " one kernel");
  }

 private:
  LayerNormGeometry geometry_;
  float eps_;
  size_t inputs_;
  cuda::measure::LibraryContext& context_;
};

}  // namespace


std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Shape& x = node.input_shapes.at(0);
  const int rank = baseline::int_attr(node, "normalized_rank", 1);
  if (static_cast<size_t>(rank) > x.size())
    throw std::invalid_argument(node.where() + ": normalized_rank exceeds the input's rank");
  int64_t cols = 1;
  for (size_t d = x.size() - static_cast<size_t>(rank); d < x.size(); ++d) cols *= x[d];
  for (size_t i = 1; i < node.input_shapes.size(); ++i)
    if (numel(node.input_shapes[i]) != cols)
      throw std::invalid_argument(node.where() + ": weight and bias must hold the " +
                                  std::to_string(cols) + " normalised elements");
  return std::make_unique<LayerNormStep>(plan_layernorm(numel(x) / cols, cols, context.sm_count()),
                                         static_cast<float>(node.attr("eps")),
                                         node.input_shapes.size(), context);
}

}  // namespace kbv::ops::layernorm
