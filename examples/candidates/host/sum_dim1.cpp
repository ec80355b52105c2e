// host sum_dim1 — y[b, 1, j] = Σ_i x[b, i, j] (sum along the problem's axis, kept as size 1),
// accumulated a whole contiguous row at a time straight into y.
#include "host_common.hpp"

namespace {
constexpr const char* kAxisAttribute = "sum.axis";
constexpr double kDefaultAxis = 1;  // KernelBench L1 #47 sums over dim 1
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "sum_dim1_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0);
  const auto split = host_candidate::split_at_axis(x, call.attribute(kAxisAttribute, kDefaultAxis));
  if (!expect(split.valid && call.output(0).numel() == split.outer * split.inner,
              "sum axis or output shape invalid"))
    return KBV_STATUS_INVALID_ARGUMENT;
  for (int64_t o = 0; o < split.outer; ++o) {
    const float* in = x.data<float>() + o * split.extent * split.inner;
    float* out = call.output(0).data<float>() + o * split.inner;
    for (int64_t i = 0; i < split.inner; ++i) out[i] = 0.0f;
    for (int64_t a = 0; a < split.extent; ++a)
      for (int64_t i = 0; i < split.inner; ++i) out[i] += in[a * split.inner + i];
  }
  return KBV_STATUS_OK;
}
