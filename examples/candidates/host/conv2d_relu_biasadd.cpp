// host conv2d_relu_biasadd — y = relu(conv2d(x, weight) + conv_bias) + bias, fused: the
// convolution accumulates into y (seeded with conv_bias), then one pass applies relu and bias.
#include "host_common.hpp"

namespace {
constexpr const char* kStrideAttribute = "conv.stride";
constexpr const char* kPaddingAttribute = "conv.padding";
constexpr const char* kDilationAttribute = "conv.dilation";
constexpr const char* kGroupsAttribute = "conv.groups";
// torch.nn.Conv2d's defaults, which KernelBench L2 #1 uses.
constexpr double kDefaultStride = 1, kDefaultPadding = 0, kDefaultDilation = 1, kDefaultGroups = 1;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "conv2d_relu_biasadd_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 4, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0), w = call.input(1), y = call.output(0);
  const int64_t out_channels = w.dim(0);
  if (call.attribute(kGroupsAttribute, kDefaultGroups) != 1) {
    kbv::set_error("grouped convolution is not implemented");
    return KBV_STATUS_UNSUPPORTED;
  }
  host_candidate::Window2d g;
  g.kernel_h = w.dim(2);
  g.kernel_w = w.dim(3);
  g.stride = static_cast<int64_t>(call.attribute(kStrideAttribute, kDefaultStride));
  g.padding = static_cast<int64_t>(call.attribute(kPaddingAttribute, kDefaultPadding));
  g.dilation = static_cast<int64_t>(call.attribute(kDilationAttribute, kDefaultDilation));
  g.in_h = x.dim(2);
  g.in_w = x.dim(3);
  g.out_h = y.dim(2);
  g.out_w = y.dim(3);
  if (!expect(x.rank() == 4 && w.rank() == 4 && y.rank() == 4 && w.dim(1) == x.dim(1) &&
                  y.dim(0) == x.dim(0) && y.dim(1) == out_channels && g.consistent() &&
                  call.input(2).numel() == out_channels && call.input(3).numel() == out_channels,
              "expected x[N,C,H,W], weight[O,C,KH,KW], conv_bias[O], bias[O,1,1], y[N,O,OH,OW]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  float* out = y.data<float>();
  host_candidate::conv2d(x.data<float>(), w.data<float>(), call.input(2).data<float>(), out,
                         x.dim(0), x.dim(1), out_channels, g);
  const float* bias = call.input(3).data<float>();
  const int64_t plane = g.out_h * g.out_w;
  for (int64_t n = 0; n < x.dim(0); ++n)
    for (int64_t o = 0; o < out_channels; ++o) {
      float* y_plane = out + (n * out_channels + o) * plane;
      const float b = bias[o];
      for (int64_t i = 0; i < plane; ++i) y_plane[i] = (y_plane[i] < 0.0f ? 0.0f : y_plane[i]) + b;
    }
  return KBV_STATUS_OK;
}
