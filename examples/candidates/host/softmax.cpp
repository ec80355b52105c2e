// host softmax — numerically stable softmax along the problem's axis: per slice, the max, then
// exp(x − max) summed in double, then a scale by 1/sum. Contiguous rows take a fast path.
#include "host_common.hpp"

#include <cmath>
#include <limits>

namespace {
constexpr const char* kAxisAttribute = "softmax.axis";
constexpr double kDefaultAxis = 1;  // the problem's softmax over dim 1 of x[B, D]

// Softmax of `extent` values spaced `stride` apart.
void softmax_slice(const float* x, float* y, int64_t extent, int64_t stride) {
  float max = -std::numeric_limits<float>::infinity();
  for (int64_t a = 0; a < extent; ++a) max = std::fmax(max, x[a * stride]);
  double sum = 0.0;
  for (int64_t a = 0; a < extent; ++a) {
    const float e = std::exp(x[a * stride] - max);
    y[a * stride] = e;
    sum += e;
  }
  const auto scale = static_cast<float>(1.0 / sum);
  for (int64_t a = 0; a < extent; ++a) y[a * stride] *= scale;
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "softmax_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 1, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0);
  const auto split = host_candidate::split_at_axis(x, call.attribute(kAxisAttribute, kDefaultAxis));
  if (!expect(split.valid && call.output(0).numel() == x.numel(), "softmax axis or output shape invalid"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const float* in = x.data<float>();
  float* out = call.output(0).data<float>();
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t i = 0; i < split.inner; ++i) {
      const int64_t start = o * split.extent * split.inner + i;
      softmax_slice(in + start, out + start, split.extent, split.inner);
    }
  return KBV_STATUS_OK;
}
