// daemon/ops/maxpool2d/reference.cu — maxpool2d's CUDA fp64 reference: one thread per output, taps
// in the padding skipped (as if −∞), NaN propagating.
#include <cmath>

#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::maxpool2d {
namespace {

struct PoolGeometry {
  int64_t planes = 0, in_h = 0, in_w = 0, out_h = 0, out_w = 0;  // planes = batch × channels
  int64_t kernel = 1, stride = 1, padding = 0, dilation = 1;
};

__global__ void maxpool_kernel(const double* x, double* y, PoolGeometry g, int64_t total) {
  for (int64_t idx = cuda::detail::global_thread_index(); idx < total;
       idx += cuda::detail::grid_stride()) {
    const int64_t ow = idx % g.out_w;
    const int64_t oh = (idx / g.out_w) % g.out_h;
    const int64_t plane = idx / (g.out_w * g.out_h);
    const double* in = x + plane * g.in_h * g.in_w;
    double best = -INFINITY;
    for (int64_t kh = 0; kh < g.kernel; ++kh) {
      const int64_t ih = oh * g.stride - g.padding + kh * g.dilation;
      if (ih < 0 || ih >= g.in_h) continue;
      for (int64_t kw = 0; kw < g.kernel; ++kw) {
        const int64_t iw = ow * g.stride - g.padding + kw * g.dilation;
        if (iw < 0 || iw >= g.in_w) continue;
        const double value = in[ih * g.in_w + iw];
        if (value > best || isnan(value)) best = value;  // PyTorch's rule: NaN sticks
        if (isnan(best)) break;
      }
      if (isnan(best)) break;
    }
    y[idx] = best;
  }
}

}  // namespace

void device_reference(const ReferenceCall& call) {
  const Shape& x = call.shape(0);
  const Shape& y = call.output_shape();  // validated against the host's infer_shape
  PoolGeometry g;
  g.planes = x[0] * x[1], g.in_h = x[2], g.in_w = x[3], g.out_h = y[2], g.out_w = y[3];
  g.kernel = call.integer("kernel", 1);
  g.stride = call.integer("stride", 0);
  if (g.stride == 0) g.stride = g.kernel;  // the host op's convention: 0 means the kernel size
  g.padding = call.integer("padding", 0);
  g.dilation = call.integer("dilation", 1);
  const int64_t total = g.planes * g.out_h * g.out_w;
  if (total <= 0) return;
  maxpool_kernel<<<cuda::detail::grid_for(total), cuda::detail::kBlockThreads, 0, call.stream>>>(
      call.input(0), call.output(), g, total);
  cuda::check_launch("maxpool_kernel");
}

}  // namespace kbv::ops::maxpool2d
