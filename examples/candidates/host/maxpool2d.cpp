// host maxpool2d — y[n,c,oh,ow] = max over the k×k window (stride, padding, dilation from the
// problem's attributes; padded positions never win, as in torch.nn.MaxPool2d).
#include "host_common.hpp"

#include <cmath>
#include <limits>

namespace {
constexpr const char* kKernelAttribute = "pool.kernel";
constexpr const char* kStrideAttribute = "pool.stride";
constexpr const char* kPaddingAttribute = "pool.padding";
constexpr const char* kDilationAttribute = "pool.dilation";
// KernelBench L1 #42: MaxPool2d(kernel_size=4, stride=1, padding=1, dilation=1).
constexpr double kDefaultKernel = 4, kDefaultStride = 1, kDefaultPadding = 1, kDefaultDilation = 1;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "maxpool2d_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0), y = call.output(0);
  host_candidate::Window2d g;
  g.kernel_h = g.kernel_w = static_cast<int64_t>(call.attribute(kKernelAttribute, kDefaultKernel));
  g.stride = static_cast<int64_t>(call.attribute(kStrideAttribute, kDefaultStride));
  g.padding = static_cast<int64_t>(call.attribute(kPaddingAttribute, kDefaultPadding));
  g.dilation = static_cast<int64_t>(call.attribute(kDilationAttribute, kDefaultDilation));
  g.in_h = x.dim(2);
  g.in_w = x.dim(3);
  g.out_h = y.dim(2);
  g.out_w = y.dim(3);
  if (!expect(x.rank() == 4 && y.rank() == 4 && y.dim(0) == x.dim(0) && y.dim(1) == x.dim(1) &&
                  g.kernel_h >= 1 && g.consistent(),
              "expected x[N,C,H,W] and y[N,C,OH,OW] matching the pooling attributes"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t planes = x.dim(0) * x.dim(1);
  const int64_t in_plane = g.in_h * g.in_w, out_plane = g.out_h * g.out_w;
  for (int64_t p = 0; p < planes; ++p) {
    const float* in = x.data<float>() + p * in_plane;
    float* out = y.data<float>() + p * out_plane;
    for (int64_t i = 0; i < out_plane; ++i) out[i] = -std::numeric_limits<float>::infinity();
    // Window offset by offset, each a clipped row-wise max: the inner loop is branch-free.
    for (int64_t kh = 0; kh < g.kernel_h; ++kh)
      for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
        int64_t first = 0, last = 0;
        g.valid_columns(kw * g.dilation, first, last);
        const int64_t count = last - first;
        if (count == 0) continue;
        const int64_t first_column = first * g.stride + kw * g.dilation - g.padding;
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          const int64_t ih = oh * g.stride - g.padding + kh * g.dilation;
          if (ih < 0 || ih >= g.in_h) continue;
          const float* in_row = in + ih * g.in_w + first_column;
          float* out_row = out + oh * g.out_w + first;
          for (int64_t t = 0; t < count; ++t) {
            const float v = in_row[t * g.stride];
            // NaN propagates like torch's max pooling: once a NaN is seen it stays.
            out_row[t] = (v > out_row[t] || std::isnan(v)) ? v : out_row[t];
          }
        }
      }
  }
  return KBV_STATUS_OK;
}
