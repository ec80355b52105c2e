// host layernorm — normalises each sample over its trailing dims (those of weight), two passes
// in double (mean, then the biased variance of the deviations), then y = x̂·weight + bias.
#include "host_common.hpp"

#include <cmath>

namespace {
constexpr const char* kEpsAttribute = "ln.eps";
constexpr double kDefaultEps = 1e-5;  // torch.nn.LayerNorm's default
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "layernorm_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 3, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t total = call.input(0).numel();
  const int64_t row = call.input(1).numel();  // weight covers exactly the normalised dims
  if (!expect(row > 0 && total % row == 0 && call.input(2).numel() == row &&
                  call.output(0).numel() == total,
              "weight/bias do not match the trailing dims of x"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const double eps = call.attribute(kEpsAttribute, kDefaultEps);
  const float* weight = call.input(1).data<float>();
  const float* bias = call.input(2).data<float>();
  for (int64_t r = 0; r < total / row; ++r) {
    const float* x = call.input(0).data<float>() + r * row;
    float* y = call.output(0).data<float>() + r * row;
    double sum = 0.0;
    for (int64_t j = 0; j < row; ++j) sum += x[j];
    const double mean = sum / static_cast<double>(row);
    double squares = 0.0;
    for (int64_t j = 0; j < row; ++j) squares += (x[j] - mean) * (x[j] - mean);
    const auto rstd = static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(row) + eps));
    const auto mean_f = static_cast<float>(mean);
    for (int64_t j = 0; j < row; ++j) y[j] = (x[j] - mean_f) * rstd * weight[j] + bias[j];
  }
  return KBV_STATUS_OK;
}
