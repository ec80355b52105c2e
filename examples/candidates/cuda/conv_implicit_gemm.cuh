// conv_implicit_gemm.cuh — 2-D convolution as an implicit GEMM on the TF32 tensor-core kernel of
// tf32_gemm.cuh: C[O, N·OH·OW] = W[O, C·KH·KW] · im2col(x), where the im2col matrix is never
// built — each B element is gathered from x (zero outside the padded input) as the tile loads.
// The epilogue gets (output channel, accumulator), so bias and activations fuse into the store.
#pragma once

#include <climits>
#include <string>

#include "tf32_gemm.cuh"

namespace conv_candidate {

constexpr const char* kStrideAttribute = "conv.stride";
constexpr const char* kPaddingAttribute = "conv.padding";
constexpr const char* kDilationAttribute = "conv.dilation";
constexpr const char* kGroupsAttribute = "conv.groups";
// torch.nn.Conv2d's defaults, which the problems (stride 1, padding 0) also use.
constexpr double kDefaultStride = 1, kDefaultPadding = 0, kDefaultDilation = 1, kDefaultGroups = 1;

struct Geometry {
  int channels, in_h, in_w, kernel_h, kernel_w, stride, padding, dilation, out_h, out_w;
};

// One GEMM row of B (a reduction index): which input channel and kernel tap it reads. Built on
// the host for up to kMaxTapTable rows and passed with the kernel's parameters, so b_at() needs
// no division (every thread of a warp reads the same row: a uniform constant-bank load).
struct Tap {
  int channel_offset;  // channel · H · W
  short dh, dw;        // kh · dilation, kw · dilation
};
constexpr int kMaxTapTable = 256;  // 2 KiB of kernel parameters (the limit is 4 KiB)

template <class Epilogue>
struct ImplicitConv {
  static constexpr bool kBContiguousInK = false;  // adjacent GEMM columns are adjacent ow
  const float* x;
  const float* w;
  float* y;
  int64_t m, n, k;  // O, N·OH·OW, C·KH·KW
  int batches;
  Geometry g;
  Epilogue epilogue;
  bool use_taps = false;  // k ≤ kMaxTapTable
  Tap taps[kMaxTapTable];

  __device__ float a(int, int64_t o, int64_t kk) const { return w[o * k + kk]; }
  __device__ float b(int, int64_t kk, int64_t col) const {
    const int column = static_cast<int>(col), tap = static_cast<int>(kk);
    const int ow = column % g.out_w, oh = (column / g.out_w) % g.out_h, image = column / (g.out_w * g.out_h);
    const int kw = tap % g.kernel_w, kh = (tap / g.kernel_w) % g.kernel_h, c = tap / (g.kernel_w * g.kernel_h);
    const int ih = oh * g.stride - g.padding + kh * g.dilation;
    const int iw = ow * g.stride - g.padding + kw * g.dilation;
    if (ih < 0 || ih >= g.in_h || iw < 0 || iw >= g.in_w) return 0.0f;
    return x[((static_cast<int64_t>(image) * g.channels + c) * g.in_h + ih) * g.in_w + iw];
  }
  // The output pixel a GEMM column stands for, worked out once per thread (tf32_gemm.cuh).
  struct Column {
    const float* image;  // x of the pixel's image
    int ih0, iw0;        // input row and column of tap (0, 0)
    bool in_range;
  };
  __device__ Column b_column(int, int64_t col) const {
    if (col >= n) return {x, 0, 0, false};
    const int column = static_cast<int>(col);
    const int ow = column % g.out_w, oh = (column / g.out_w) % g.out_h, image = column / (g.out_w * g.out_h);
    return {x + static_cast<int64_t>(image) * g.channels * g.in_h * g.in_w, oh * g.stride - g.padding, ow * g.stride - g.padding, true};
  }
  __device__ bool column_in_range(const Column& c) const { return c.in_range; }
  __device__ float b_at(int, int64_t kk, const Column& c) const {
    int64_t channel_offset;
    int ih, iw;
    if (use_taps) {
      const Tap tap = taps[kk];
      channel_offset = tap.channel_offset;
      ih = c.ih0 + tap.dh;
      iw = c.iw0 + tap.dw;
    } else {
      const int tap = static_cast<int>(kk), per_channel = g.kernel_w * g.kernel_h;
      const int channel = tap / per_channel, within = tap - channel * per_channel;
      const int kh = within / g.kernel_w, kw = within - kh * g.kernel_w;
      channel_offset = static_cast<int64_t>(channel) * g.in_h * g.in_w;
      ih = c.ih0 + kh * g.dilation;
      iw = c.iw0 + kw * g.dilation;
    }
    if (ih < 0 || ih >= g.in_h || iw < 0 || iw >= g.in_w) return 0.0f;
    return c.image[channel_offset + static_cast<int64_t>(ih) * g.in_w + iw];
  }
  __device__ void store(int, int64_t o, int64_t col, float v) const {
    const int column = static_cast<int>(col);
    const int ow = column % g.out_w, oh = (column / g.out_w) % g.out_h, image = column / (g.out_w * g.out_h);
    y[((static_cast<int64_t>(image) * m + o) * g.out_h + oh) * g.out_w + ow] = epilogue(static_cast<int>(o), v);
  }
};

// Checks x[N,C,H,W], weight[O,C,KH,KW] and y[N,O,OH,OW] against the attributes, then launches
// the implicit GEMM with `epilogue` on the call's stream.
template <class Epilogue>
kbv_status run(kbv::Call& call, Epilogue epilogue, const char* name) {
  using cuda_candidate::expect;
  if (call.attribute(kGroupsAttribute, kDefaultGroups) != 1) {
    kbv::set_error(std::string(name) + ": grouped convolution is not implemented");
    return KBV_STATUS_UNSUPPORTED;
  }
  const kbv::Tensor x = call.input(0), w = call.input(1), y = call.output(0);
  Geometry g{};
  g.channels = static_cast<int>(x.dim(1u));
  g.in_h = static_cast<int>(x.dim(2u));
  g.in_w = static_cast<int>(x.dim(3u));
  g.kernel_h = static_cast<int>(w.dim(2u));
  g.kernel_w = static_cast<int>(w.dim(3u));
  g.stride = static_cast<int>(call.attribute(kStrideAttribute, kDefaultStride));
  g.padding = static_cast<int>(call.attribute(kPaddingAttribute, kDefaultPadding));
  g.dilation = static_cast<int>(call.attribute(kDilationAttribute, kDefaultDilation));
  g.out_h = static_cast<int>(y.dim(2u));
  g.out_w = static_cast<int>(y.dim(3u));
  auto expected = [&](int in, int kernel) { return (in + 2 * g.padding - g.dilation * (kernel - 1) - 1) / g.stride + 1; };
  const int64_t columns = x.dim(0u) * y.dim(2u) * y.dim(3u);
  if (!expect(x.rank() == 4 && w.rank() == 4 && y.rank() == 4 && w.dim(1u) == x.dim(1u) && y.dim(0u) == x.dim(0u) &&
                  y.dim(1u) == w.dim(0u) && g.stride >= 1 && g.padding >= 0 && g.dilation >= 1 &&
                  g.out_h == expected(g.in_h, g.kernel_h) && g.out_w == expected(g.in_w, g.kernel_w) &&
                  columns <= INT_MAX && x.dim(1u) * w.dim(2u) * w.dim(3u) <= INT_MAX,
              std::string(name) + ": expected x[N,C,H,W], weight[O,C,KH,KW], y[N,O,OH,OW] matching the attributes"))
    return KBV_STATUS_INVALID_ARGUMENT;
  ImplicitConv<Epilogue> p{x.data<float>(), w.data<float>(), y.data<float>(), w.dim(0u), columns,
                           x.dim(1u) * w.dim(2u) * w.dim(3u), 1, g, epilogue, false, {}};
  const int64_t plane = static_cast<int64_t>(g.in_h) * g.in_w;
  p.use_taps = p.k <= kMaxTapTable && plane * g.channels <= INT_MAX && g.kernel_h * g.dilation <= SHRT_MAX &&
               g.kernel_w * g.dilation <= SHRT_MAX;
  if (p.use_taps) {
    for (int tap = 0; tap < static_cast<int>(p.k); ++tap) {
      const int per_channel = g.kernel_w * g.kernel_h, channel = tap / per_channel, within = tap % per_channel;
      p.taps[tap] = {static_cast<int>(channel * plane), static_cast<short>(within / g.kernel_w * g.dilation),
                     static_cast<short>(within % g.kernel_w * g.dilation)};
    }
  }
  return tf32_gemm::launch(p, cuda_candidate::stream_of(call), name);
}

}  // namespace conv_candidate
