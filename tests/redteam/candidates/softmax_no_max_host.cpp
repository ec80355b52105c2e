// redteam_softmax_no_max_host — docs/threat-model.md #1 (numerics that hold only on the public
// inputs), host softmax: exp(x) / Σ exp(x) along each row without subtracting the row's maximum
// first. Exact enough wherever every exp(x) stays finite, as on U[0,1), normal or shifted inputs;
// a value above 88.7 makes exp overflow to inf and the row's outputs NaN.
// Expected: fail_correctness on the magnitude class's family (large or wide_range), under every key.
#include "redteam_common.hpp"

#include <cmath>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_softmax_no_max_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0);
  const int64_t rows = x.dim(0u), row = x.dim(1u);  // softmax over dim 1 of [batch, dim]
  const float* in = x.data<float>();
  float* out = call.output(0).data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    float sum = 0.0f;
    for (int64_t i = 0; i < row; ++i) sum += std::exp(in[r * row + i]);
    for (int64_t i = 0; i < row; ++i) out[r * row + i] = std::exp(in[r * row + i]) / sum;
  }
  return KBV_STATUS_OK;
}
