// host conv2d — y = conv2d(x[N,C,H,W], weight[O,C,KH,KW]) without bias, any stride, padding
// and dilation from the problem's attributes (direct convolution, see host_common.hpp).
#include "host_common.hpp"

namespace {
constexpr const char* kStrideAttribute = "conv.stride";
constexpr const char* kPaddingAttribute = "conv.padding";
constexpr const char* kDilationAttribute = "conv.dilation";
constexpr const char* kGroupsAttribute = "conv.groups";
// torch.nn.Conv2d's defaults, which the problem (stride 1, padding 0) also uses.
constexpr double kDefaultStride = 1, kDefaultPadding = 0, kDefaultDilation = 1, kDefaultGroups = 1;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "conv2d_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 2, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0), w = call.input(1), y = call.output(0);
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
                  y.dim(0) == x.dim(0) && y.dim(1) == w.dim(0) && g.consistent(),
              "expected x[N,C,H,W], weight[O,C,KH,KW] and y[N,O,OH,OW] matching the attributes"))
    return KBV_STATUS_INVALID_ARGUMENT;
  host_candidate::conv2d(x.data<float>(), w.data<float>(), nullptr, y.data<float>(), x.dim(0),
                         x.dim(1), w.dim(0), g);
  return KBV_STATUS_OK;
}
