// host rmsnorm — y = x / sqrt(mean(x², axis) + eps) along the problem's axis (dim 1 of
// [N, F, H, W]): squares are accumulated a whole [inner] row at a time so reads stay contiguous.
#include "host_common.hpp"

#include <cmath>
#include <vector>

namespace {
constexpr const char* kAxisAttribute = "rms.axis";
constexpr const char* kEpsAttribute = "rms.eps";
constexpr double kDefaultAxis = 1;     // KernelBench L1 #36 normalises the feature dim
constexpr double kDefaultEps = 1e-5;   // and uses eps = 1e-5
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "rmsnorm_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0);
  const auto split = host_candidate::split_at_axis(x, call.attribute(kAxisAttribute, kDefaultAxis));
  if (!expect(split.valid && call.output(0).numel() == x.numel(), "rmsnorm axis or output shape invalid"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const double eps = call.attribute(kEpsAttribute, kDefaultEps);
  // One accumulator per inner position, kept between calls so steady-state runs allocate nothing.
  // One accumulator per inner position, kept between calls so steady-state runs allocate nothing.
  static thread_local std::vector<float> scale_buffer;
  scale_buffer.resize(static_cast<size_t>(split.inner));
  float* scale = scale_buffer.data();
  const int64_t inner = split.inner;
  const int64_t slab = split.extent * inner;
  for (int64_t o = 0; o < split.outer; ++o) {
    const float* in = x.data<float>() + o * slab;
    float* out = call.output(0).data<float>() + o * slab;
    for (int64_t i = 0; i < inner; ++i) scale[i] = 0.0f;
    for (int64_t a = 0; a < split.extent; ++a)
      for (int64_t i = 0; i < inner; ++i) scale[i] += in[a * inner + i] * in[a * inner + i];
    for (int64_t i = 0; i < inner; ++i)
      scale[i] = static_cast<float>(1.0 / std::sqrt(scale[i] / static_cast<double>(split.extent) + eps));
    for (int64_t a = 0; a < split.extent; ++a)
      for (int64_t i = 0; i < inner; ++i) out[a * inner + i] = in[a * inner + i] * scale[i];
  }
  return KBV_STATUS_OK;
}
