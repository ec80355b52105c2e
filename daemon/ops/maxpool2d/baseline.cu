// daemon/ops/maxpool2d/baseline.cu — maxpool2d's CUDA baseline (torch.nn.MaxPool2d,
// ceil_mode=False), padding treated as -inf, NaN propagating as in PyTorch's kernel. Unit stride
// and dilation (KernelBench's pools) take a register-tiled kernel: each thread loads a
// (R+K-1)×(V+K-1) input window once for R×V outputs, a row max then a column max; other geometries
// one thread per output.
#include <algorithm>
#include <memory>
#include <stdexcept>

#include "common/cuda_error.hpp"
#include "measure/baseline/node_step.hpp"
#include "measure/support/device_attributes.hpp"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::maxpool2d {
namespace {

// Max pooling over [planes = N·C, H, W]; padding counts as -inf; NaN propagates.
struct Pool2dGeometry {
  int64_t planes = 0;
  int64_t in_h = 0, in_w = 0;
  int64_t out_h = 0, out_w = 0;
  int kernel = 1, stride = 1, padding = 0, dilation = 1;
};

constexpr int kThreads = 256;

__global__ void maxpool2d_kernel(Pool2dGeometry g, const float* __restrict__ x,
                                 float* __restrict__ y) {
  const int64_t total = g.planes * g.out_h * g.out_w;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       index < total; index += stride) {
    const int64_t ow = index % g.out_w;
    const int64_t oh = (index / g.out_w) % g.out_h;
    const int64_t plane = index / (g.out_w * g.out_h);
    const float* xp = x + plane * g.in_h * g.in_w;
    const int64_t h0 = oh * g.stride - g.padding;
    const int64_t w0 = ow * g.stride - g.padding;
    float best = -INFINITY;
    for (int kh = 0; kh < g.kernel; ++kh) {
      const int64_t h = h0 + static_cast<int64_t>(kh) * g.dilation;
      if (h < 0 || h >= g.in_h) continue;
      for (int kw = 0; kw < g.kernel; ++kw) {
        const int64_t w = w0 + static_cast<int64_t>(kw) * g.dilation;
        if (w < 0 || w >= g.in_w) continue;
        const float v = xp[h * g.in_w + w];
        if (v > best || v != v) best = v;  // NaN wins and stays (v != v is true for NaN)
        if (best != best) break;
      }
      if (best != best) break;
    }
    y[index] = best;
  }
}

// max that keeps a NaN from either side (PyTorch: `val > maxval || isnan(val)`).
__device__ __forceinline__ float nan_max(float a, float b) { return (a > b || a != a) ? a : b; }

// Outputs per thread along a row (V) and down a column (R): 4×4 cuts loads from K² per output
// to (R+K-1)(V+K-1)/(R·V) (49/16 for K = 4) and keeps every index 32-bit inside a plane.
constexpr int kTileColumns = 4;
constexpr int kTileRows = 4;
constexpr int kTiledBlockX = 32, kTiledBlockY = 4;

template <int K>
__global__ void maxpool2d_unit_stride_kernel(Pool2dGeometry g, const float* __restrict__ x,
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
void launch_unit_stride(const Pool2dGeometry& g, const float* x, float* y, cudaStream_t stream) {
  const dim3 block(kTiledBlockX, kTiledBlockY);
  const dim3 grid(static_cast<unsigned>((g.out_w + kTiledBlockX * kTileColumns - 1) / (kTiledBlockX * kTileColumns)),
                  static_cast<unsigned>((g.out_h + kTiledBlockY * kTileRows - 1) / (kTiledBlockY * kTileRows)),
                  static_cast<unsigned>(g.planes));
  maxpool2d_unit_stride_kernel<K><<<grid, block, 0, stream>>>(g, x, y);
  cuda::check_launch("kbv maxpool2d kernel (unit stride, register tiles)");
}

// CUDA's grid limits for the tiled launch (y and z dimensions).
constexpr int64_t kMaxGridYZ = 65535;

bool launch_tiled(const Pool2dGeometry& g, const float* x, float* y, cudaStream_t stream) {
  if (g.stride != 1 || g.dilation != 1 || g.planes > kMaxGridYZ ||
      (g.out_h + kTiledBlockY * kTileRows - 1) / (kTiledBlockY * kTileRows) > kMaxGridYZ)
    return false;
  switch (g.kernel) {
    case 2: launch_unit_stride<2>(g, x, y, stream); return true;
    case 3: launch_unit_stride<3>(g, x, y, stream); return true;
    case 4: launch_unit_stride<4>(g, x, y, stream); return true;
    case 5: launch_unit_stride<5>(g, x, y, stream); return true;
    default: return false;
  }
}

void launch_maxpool2d(const Pool2dGeometry& geometry, const float* x, float* y,
                      cudaStream_t stream) {
  const int64_t total = geometry.planes * geometry.out_h * geometry.out_w;
  if (total == 0) return;
  if (launch_tiled(geometry, x, y, stream)) return;
  // Enough resident blocks to fill every SM many times over; the loop covers the rest.
  constexpr int64_t kBlocksPerSm = 32;
  const int64_t blocks = std::min((total + kThreads - 1) / kThreads,
                                  kBlocksPerSm * cuda::measure::current_sm_count());
  maxpool2d_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(geometry, x, y);
  cuda::check_launch("kbv maxpool2d kernel");
}

class MaxPoolStep final : public cuda::measure::NodeStep {
 public:
  explicit MaxPoolStep(Pool2dGeometry geometry) : geometry_(geometry) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_maxpool2d(geometry_, in[0], out, stream);
  }
  std::string describe() const override {
    return "kbv maxpool2d kernel k=" + std::to_string(geometry_.kernel) +
           " s=" + std::to_string(geometry_.stride) + " p=" + std::to_string(geometry_.padding) +
           " d=" + std::to_string(geometry_.dilation);
  }

 private:
  Pool2dGeometry geometry_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  const Shape& x = node.input_shapes.at(0);
  const Shape& y = node.output_shape;
  if (x.size() != 4 || y.size() != 4)
    throw std::invalid_argument(node.where() + ": expected x[N, C, H, W]");
  Pool2dGeometry g;
  g.planes = x[0] * x[1];
  g.in_h = x[2];
  g.in_w = x[3];
  g.out_h = y[2];
  g.out_w = y[3];
  g.kernel = baseline::int_attr(node, "kernel", 1);
  g.stride = baseline::int_attr(node, "stride", 0);
  if (g.stride == 0) g.stride = g.kernel;  // PyTorch: stride defaults to kernel_size
  g.padding = baseline::int_attr(node, "padding", 0);
  g.dilation = baseline::int_attr(node, "dilation", 1);
  return std::make_unique<MaxPoolStep>(g);
}

}  // namespace kbv::ops::maxpool2d
