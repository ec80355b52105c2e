// cuda maxpool2d — one thread per output element (grid-stride), max over the k×k window with
// the problem's stride, padding and dilation; padded positions never win, NaN propagates.
#include <cmath>

#include "cuda_common.cuh"

namespace {
constexpr const char* kKernelAttribute = "pool.kernel";
constexpr const char* kStrideAttribute = "pool.stride";
constexpr const char* kPaddingAttribute = "pool.padding";
constexpr const char* kDilationAttribute = "pool.dilation";
// KernelBench L1 #42: MaxPool2d(kernel_size=4, stride=1, padding=1, dilation=1).
constexpr double kDefaultKernel = 4, kDefaultStride = 1, kDefaultPadding = 1, kDefaultDilation = 1;
constexpr int kThreads = 256;

struct Pool {
  int kernel, stride, padding, dilation;
  int64_t in_h, in_w, out_h, out_w;
};

__global__ void __launch_bounds__(kThreads)
    maxpool(const float* __restrict__ x, float* __restrict__ y, int64_t outputs, Pool p) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * kThreads;
  for (int64_t index = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x; index < outputs; index += stride) {
    const int64_t ow = index % p.out_w;
    const int64_t oh = (index / p.out_w) % p.out_h;
    const int64_t plane = index / (p.out_w * p.out_h);
    const float* in = x + plane * p.in_h * p.in_w;
    float best = -INFINITY;
    for (int kh = 0; kh < p.kernel; ++kh) {
      const int64_t ih = oh * p.stride - p.padding + kh * p.dilation;
      if (ih < 0 || ih >= p.in_h) continue;
      for (int kw = 0; kw < p.kernel; ++kw) {
        const int64_t iw = ow * p.stride - p.padding + kw * p.dilation;
        if (iw < 0 || iw >= p.in_w) continue;
        const float v = in[ih * p.in_w + iw];
        best = (v > best || isnan(v)) ? v : best;
      }
    }
    y[index] = best;
  }
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "maxpool2d_direct")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using namespace cuda_candidate;
  if (!expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0), y = call.output(0);
  Pool p{};
  p.kernel = static_cast<int>(call.attribute(kKernelAttribute, kDefaultKernel));
  p.stride = static_cast<int>(call.attribute(kStrideAttribute, kDefaultStride));
  p.padding = static_cast<int>(call.attribute(kPaddingAttribute, kDefaultPadding));
  p.dilation = static_cast<int>(call.attribute(kDilationAttribute, kDefaultDilation));
  p.in_h = x.dim(2u);
  p.in_w = x.dim(3u);
  p.out_h = y.dim(2u);
  p.out_w = y.dim(3u);
  auto expected = [&](int64_t in) { return (in + 2 * p.padding - p.dilation * (p.kernel - 1) - 1) / p.stride + 1; };
  if (!expect(x.rank() == 4 && y.rank() == 4 && y.dim(0u) == x.dim(0u) && y.dim(1u) == x.dim(1u) && p.kernel >= 1 &&
                  p.stride >= 1 && p.padding >= 0 && p.dilation >= 1 && p.out_h == expected(p.in_h) &&
                  p.out_w == expected(p.in_w),
              "expected x[N,C,H,W] and y[N,C,OH,OW] matching the pooling attributes"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t outputs = y.numel();
  if (outputs == 0) return KBV_STATUS_OK;
  maxpool<<<grid_for(outputs, kThreads), kThreads, 0, stream_of(call)>>>(x.data<float>(), y.data<float>(), outputs, p);
  return launch_status("maxpool");
}
