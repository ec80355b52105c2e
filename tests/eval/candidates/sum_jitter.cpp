// hostile_sum_jitter — sum_dim1 whose outputs are scaled by 1 + 0.9e-5 on odd calls and by
// 1 − 0.9e-5 on even ones: each call alone stays inside the tolerance (rel-L2 0.9e-5 < 1e-5),
// but two calls on the same inputs differ by 1.8e-5 of the output (rel-L2 1.8e-5), beyond it:
// what a race or an uninitialised read does at small amplitude, made deterministic for a test.
// Expected verdict: fail_correctness on the public family; the detail says two calls on the
// same inputs gave outputs that differ beyond the tolerance.
#include <kbv/plugin.hpp>

namespace {
constexpr double kJitter = 0.9e-5;
int g_calls = 0;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "sum_jitter")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0);
  const int64_t outer = x.dim(0u), extent = x.dim(1u), inner = x.dim(2u);
  const float* in = x.data<float>();
  float* y = call.output(0).data<float>();
  const double scale = ++g_calls % 2 != 0 ? 1.0 + kJitter : 1.0 - kJitter;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double sum = 0;
      for (int64_t a = 0; a < extent; ++a) sum += in[(o * extent + a) * inner + i];
      y[o * inner + i] = static_cast<float>(sum * scale);
    }
  return KBV_STATUS_OK;
}
