// kernels/maxpool.cu — 2-D max pooling (torch.nn.MaxPool2d, ceil_mode=False): one thread per
// output element, padding treated as -inf, NaN propagating as in PyTorch's kernel.
#include <algorithm>

#include "measure/kernels/kernels.hpp"
#include "measure/support/library_errors.hpp"

namespace kbv::cuda::kernels {
namespace {

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

}  // namespace

void launch_maxpool2d(const Pool2dGeometry& geometry, const float* x, float* y,
                      cudaStream_t stream) {
  const int64_t total = geometry.planes * geometry.out_h * geometry.out_w;
  if (total == 0) return;
  // Enough resident blocks to fill every SM many times over; the loop covers the rest.
  constexpr int64_t kBlocksPerSm = 32;
  const int64_t blocks = std::min((total + kThreads - 1) / kThreads,
                                  kBlocksPerSm * current_sm_count());
  maxpool2d_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(geometry, x, y);
  check_launch("kbv maxpool2d kernel");
}

}  // namespace kbv::cuda::kernels
