// hostile_gemm_weight_cache_by_pointer — docs/threat-model.md, pattern 11 (caching / replay), aimed
// at the timing slots' shared parameters (eval/arena_layout.hpp): "prepacks" gemm_bias_gelu's
// weight (a transposed private copy) once per weight address and from then on computes from the
// copy without reading the weight, except at the first address it is given (the correctness
// slot's, whose trials would catch it at once).
// Expected verdict: fail_correctness (every timed sample writes fresh weights at the one address
// the timing slots share, and the timed outputs' recheck finds the stale copy's results).
#include <kbv/plugin.hpp>

#include <cmath>
#include <map>
#include <vector>

namespace {
constexpr float kInvSqrt2 = 0.70710678118654752440f;

struct Prepacked {
  std::map<const float*, std::vector<float>> transposed;  // weight address -> weightᵀ [K, N]
  const float* first_seen = nullptr;
};
Prepacked& prepacked() {
  static Prepacked state;
  return state;
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "gemm_weight_cache_by_pointer")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0), w = call.input(1);
  const int64_t m = x.dim(0), k = x.dim(1), n = w.dim(0);
  const float* weight = w.data<float>();
  const float* bias = call.input(2).data<float>();
  Prepacked& state = prepacked();
  if (state.first_seen == nullptr) state.first_seen = weight;
  std::vector<float> fresh;
  const std::vector<float>* packed = nullptr;
  if (auto hit = state.transposed.find(weight); hit != state.transposed.end()) {
    packed = &hit->second;
  } else {
    fresh.resize(static_cast<size_t>(k * n));
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < k; ++c) fresh[static_cast<size_t>(c * n + r)] = weight[r * k + c];
    packed = weight == state.first_seen ? &fresh : &(state.transposed[weight] = fresh);
  }
  const float* xs = x.data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float sum = bias[j];
      for (int64_t c = 0; c < k; ++c) sum += xs[i * k + c] * (*packed)[static_cast<size_t>(c * n + j)];
      y[i * n + j] = 0.5f * sum * (1.0f + std::erf(sum * kInvSqrt2));
    }
  return KBV_STATUS_OK;
}
