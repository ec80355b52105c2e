// daemon/ops/common/baseline/pool_f32.cu — the pooling ops' fp32 CUDA baseline kernels and step.
#include "ops/common/baseline/pool_f32.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "common/cuda_error.hpp"
#include "measure/support/device_attributes.hpp"
#include "ops/common/baseline/axis_f32.cuh"

namespace kbv::ops::baseline {
namespace {

using pooling::PoolGeometry;
using pooling::PoolKind;

constexpr int kThreads = 256;
// Enough resident blocks to fill every SM many times over; the grid-stride loop covers the rest
// (PyTorch's CUDA_KERNEL_LOOP launches are capped the same way).
constexpr int64_t kBlocksPerSm = 32;

template <PoolKind Kind>
__global__ void pool_kernel(PoolGeometry g, const float* __restrict__ x, float* __restrict__ y) {
  const int64_t total = g.outputs();
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < total;
       index += stride)
    y[index] = pooling::pooled_value<Kind>(g, x, index);
}

const char* kind_text(PoolKind kind) {
  switch (kind) {
    case PoolKind::max: return "max";
    case PoolKind::average: return "average";
    default: return "adaptive average";
  }
}

class PoolStep final : public cuda::measure::NodeStep {
 public:
  PoolStep(const PoolGeometry& geometry, int spatial_axes, std::string op)
      : geometry_(geometry), spatial_axes_(spatial_axes), op_(std::move(op)) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_pool_f32(geometry_, in[0], out, stream);
  }
  std::string describe() const override {
    return "kbv " + op_ + " kernel (" + kind_text(geometry_.kind) + ", one thread per output) " +
           pool_text(geometry_, spatial_axes_);
  }

 private:
  PoolGeometry geometry_;
  int spatial_axes_;
  std::string op_;
};

// Adaptive pooling to one output per plane: the mean of each plane, a row reduction.
class PlaneMeanStep final : public cuda::measure::NodeStep {
 public:
  PlaneMeanStep(const PoolGeometry& geometry, std::string op)
      : split_{geometry.planes, geometry.in_plane(), 1}, op_(std::move(op)) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    reduce_like<kMean>(split_, 0.f, in[0], out, stream);
  }
  std::string describe() const override {
    return "kbv mean kernel for " + op_ +
           " to one output per plane (PyTorch: input.mean over the spatial dims) " + split_text(split_);
  }

 private:
  AxisSplit split_;
  std::string op_;
};

}  // namespace

void launch_pool_f32(const PoolGeometry& g, const float* x, float* y, cudaStream_t stream) {
  const int64_t total = g.outputs();
  if (total == 0) return;
  const auto blocks = static_cast<unsigned>(
      std::min((total + kThreads - 1) / kThreads, kBlocksPerSm * cuda::measure::current_sm_count()));
  switch (g.kind) {
    case PoolKind::max: pool_kernel<PoolKind::max><<<blocks, kThreads, 0, stream>>>(g, x, y); break;
    case PoolKind::average: pool_kernel<PoolKind::average><<<blocks, kThreads, 0, stream>>>(g, x, y); break;
    case PoolKind::adaptive_average:
      pool_kernel<PoolKind::adaptive_average><<<blocks, kThreads, 0, stream>>>(g, x, y);
      break;
  }
  cuda::check_launch("kbv pooling kernel");
}

std::string pool_text(const PoolGeometry& g, int spatial_axes) {
  const auto joined = [&](auto field) {
    std::string text;
    for (int axis = pooling::kSpatialAxes - spatial_axes; axis < pooling::kSpatialAxes; ++axis)
      text += (text.empty() ? "" : "x") + std::to_string(field(g.axes[axis]));
    return text;
  };
  if (g.kind == PoolKind::adaptive_average)
    return "out=" + joined([](const pooling::PoolAxis& a) { return a.out; });
  std::string text = "k=" + joined([](const pooling::PoolAxis& a) { return a.kernel; }) +
                     " s=" + joined([](const pooling::PoolAxis& a) { return a.stride; }) +
                     " p=" + joined([](const pooling::PoolAxis& a) { return a.padding; });
  if (g.kind == PoolKind::max) text += " d=" + joined([](const pooling::PoolAxis& a) { return a.dilation; });
  if (g.kind == PoolKind::average) text += g.count_include_pad ? " count_include_pad" : " count_exclude_pad";
  return text;
}

std::unique_ptr<cuda::measure::NodeStep> make_pool_step(const PoolGeometry& geometry, int spatial_axes,
                                                        std::string op) {
  if (geometry.kind == PoolKind::adaptive_average && geometry.out_plane() == 1)
    return std::make_unique<PlaneMeanStep>(geometry, std::move(op));
  return std::make_unique<PoolStep>(geometry, spatial_axes, std::move(op));
}

}  // namespace kbv::ops::baseline
