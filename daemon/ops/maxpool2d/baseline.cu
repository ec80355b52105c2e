// daemon/ops/maxpool2d/baseline.cu — maxpool2d's CUDA baseline (torch.nn.MaxPool2d), padding
// treated as -inf, NaN propagating as in PyTorch's kernel. A square kernel with unit stride and
// dilation on both axes (KernelBench's pools) takes a register-tiled kernel: each thread loads a
// (R+K-1)×(V+K-1) input window once for R×V outputs, a row max then a column max; other
// geometries (strides, dilation, per-axis kernels) one thread per output
// (ops/common/baseline/pool_f32.hpp), as PyTorch's max_pool_forward_nchw.
#include <memory>
#include <string>

#include "common/cuda_error.hpp"
#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/pool_f32.hpp"
#include "ops/common/pooling.hpp"
#include "ops/maxpool2d/maxpool2d.hpp"

namespace kbv::ops::maxpool2d {
namespace {

using pooling::PoolAxis;
using pooling::PoolGeometry;

// The tiled kernel's view of a geometry: [planes, in_h, in_w] → [planes, out_h, out_w].
struct TiledGeometry {
  int64_t planes = 0;
  int64_t in_h = 0, in_w = 0;
  int64_t out_h = 0, out_w = 0;
  int padding = 0;
};

// max that keeps a NaN from either side (PyTorch: `val > maxval || isnan(val)`).
__device__ __forceinline__ float nan_max(float a, float b) { return (a > b || a != a) ? a : b; }

// Outputs per thread along a row (V) and down a column (R): 4×4 cuts loads from K² per output
// to (R+K-1)(V+K-1)/(R·V) (49/16 for K = 4) and keeps every index 32-bit inside a plane.
constexpr int kTileColumns = 4;
constexpr int kTileRows = 4;
constexpr int kTiledBlockX = 32, kTiledBlockY = 4;

template <int K>
__global__ void maxpool2d_unit_stride_kernel(TiledGeometry g, const float* __restrict__ x,
                                             float* __restrict__ y) {
  constexpr int V = kTileColumns, R = kTileRows;
  const int64_t ow0 = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * V;
  const int64_t oh0 = (static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y) * R;
  if (ow0 >= g.out_w || oh0 >= g.out_h) return;
  const float* xp = x + static_cast<int64_t>(blockIdx.z) * g.in_h * g.in_w;
  float* yp = y + static_cast<int64_t>(blockIdx.z) * g.out_h * g.out_w;
  float out[R][V];
#pragma unroll
  for (int i = 0; i < R; ++i)
#pragma unroll
    for (int v = 0; v < V; ++v) out[i][v] = -INFINITY;
#pragma unroll
  for (int r = 0; r < R + K - 1; ++r) {
    const int64_t h = oh0 - g.padding + r;
    const bool row_inside = h >= 0 && h < g.in_h;
    float row[V + K - 1];
#pragma unroll
    for (int c = 0; c < V + K - 1; ++c) {
      const int64_t w = ow0 - g.padding + c;
      row[c] = row_inside && w >= 0 && w < g.in_w ? __ldg(xp + h * g.in_w + w) : -INFINITY;
    }
#pragma unroll
    for (int v = 0; v < V; ++v) {
      float across = row[v];
#pragma unroll
      for (int k = 1; k < K; ++k) across = nan_max(across, row[v + k]);
        // Input row r lies in the windows of output rows r-K+1 .. r of this tile.
#pragma unroll
      for (int i = 0; i < R; ++i)
        if (r - i >= 0 && r - i < K) out[i][v] = nan_max(out[i][v], across);
    }
  }
#pragma unroll
  for (int i = 0; i < R; ++i) {
    if (oh0 + i >= g.out_h) break;
#pragma unroll
    for (int v = 0; v < V; ++v)
      if (ow0 + v < g.out_w) yp[(oh0 + i) * g.out_w + ow0 + v] = out[i][v];
  }
}

template <int K>
void launch_unit_stride(const TiledGeometry& g, const float* x, float* y, cudaStream_t stream) {
  const dim3 block(kTiledBlockX, kTiledBlockY);
  const dim3 grid(
      static_cast<unsigned>((g.out_w + kTiledBlockX * kTileColumns - 1) / (kTiledBlockX * kTileColumns)),
      static_cast<unsigned>((g.out_h + kTiledBlockY * kTileRows - 1) / (kTiledBlockY * kTileRows)),
      static_cast<unsigned>(g.planes));
  maxpool2d_unit_stride_kernel<K><<<grid, block, 0, stream>>>(g, x, y);
  cuda::check_launch("kbv maxpool2d kernel (unit stride, register tiles)");
}

// CUDA's grid limits for the tiled launch (y and z dimensions).
constexpr int64_t kMaxGridYZ = 65535;

// Square kernels of these sizes with unit stride and dilation take the tiled kernel.
bool tiled_fits(const PoolGeometry& g) {
  const PoolAxis& h = g.axes[1];
  const PoolAxis& w = g.axes[2];
  return h.kernel == w.kernel && h.kernel >= 2 && h.kernel <= 5 && h.stride == 1 && w.stride == 1 &&
         h.dilation == 1 && w.dilation == 1 && h.padding == w.padding && g.planes <= kMaxGridYZ &&
         (h.out + kTiledBlockY * kTileRows - 1) / (kTiledBlockY * kTileRows) <= kMaxGridYZ;
}

void launch_tiled(const PoolGeometry& geometry, const float* x, float* y, cudaStream_t stream) {
  const PoolAxis& h = geometry.axes[1];
  const PoolAxis& w = geometry.axes[2];
  const TiledGeometry g{geometry.planes, h.in, w.in, h.out, w.out, static_cast<int>(h.padding)};
  switch (h.kernel) {
    case 2: launch_unit_stride<2>(g, x, y, stream); break;
    case 3: launch_unit_stride<3>(g, x, y, stream); break;
    case 4: launch_unit_stride<4>(g, x, y, stream); break;
    default: launch_unit_stride<5>(g, x, y, stream); break;
  }
}

void launch_maxpool2d(const PoolGeometry& geometry, const float* x, float* y, cudaStream_t stream) {
  if (geometry.outputs() == 0) return;
  if (tiled_fits(geometry))
    launch_tiled(geometry, x, y, stream);
  else
    baseline::launch_pool_f32(geometry, x, y, stream);
}

class MaxPoolStep final : public cuda::measure::NodeStep {
 public:
  explicit MaxPoolStep(const PoolGeometry& geometry) : geometry_(geometry) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_maxpool2d(geometry_, in[0], out, stream);
  }
  std::string describe() const override {
    return std::string(tiled_fits(geometry_) ? "kbv maxpool2d kernel (unit stride, register tiles) "
                                             : "kbv maxpool2d kernel (one thread per output) ") +
           baseline::pool_text(geometry_, Definition::pool.spatial_axes);
  }

 private:
  PoolGeometry geometry_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return std::make_unique<MaxPoolStep>(pool_geometry<Definition>(node.input_shapes, node.node.attrs));
}

}  // namespace kbv::ops::maxpool2d
