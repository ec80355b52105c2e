// redteam_layernorm_biased_merge_host — docs/threat-model.md #1 (numerics that hold only on the
// public inputs), host layernorm: each row is split into kChunks chunks, each reduced to (count,
// mean, M2), and the chunks merged as a parallel Welford/Chan merge would, but without the
// between-chunk term n_a·n_b·δ²/n: M2 = Σ M2_chunk. Exact when every chunk has the row's mean;
// otherwise the variance is too small by the spread of the chunk means.
// Expected: fail_correctness. At the host's small shapes a chunk holds 128 values, and even iid
// inputs give chunk means apart by ~1/√128 of a standard deviation: it fails on the public family
// already. The CUDA twin (layernorm_biased_merge.cu, default shapes, 262144 values a chunk) passes
// iid families and is caught by the structure class.
#include "redteam_common.hpp"

#include <cmath>
#include <vector>

namespace {
constexpr int64_t kChunks = 16;
constexpr double kDefaultEps = 1e-5;  // torch.nn.LayerNorm's default
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_layernorm_biased_merge_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  const float* weight = call.input(1).data<float>();
  const float* bias = call.input(2).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t row = call.input(1).numel(), rows = call.input(0).numel() / row;
  const auto eps = static_cast<float>(call.attribute("ln.eps", kDefaultEps));
  const int64_t chunk = (row + kChunks - 1) / kChunks;
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = x + r * row;
    float count = 0.0f, mean = 0.0f, m2 = 0.0f;
    for (int64_t begin = 0; begin < row; begin += chunk) {
      const int64_t end = begin + chunk < row ? begin + chunk : row;
      const auto n = static_cast<float>(end - begin);
      float sum = 0.0f;
      for (int64_t i = begin; i < end; ++i) sum += in[i];
      const float chunk_mean = sum / n;
      float chunk_m2 = 0.0f;
      for (int64_t i = begin; i < end; ++i) chunk_m2 += (in[i] - chunk_mean) * (in[i] - chunk_mean);
      // The bug: the mean is merged right, M2 without + δ²·count·n / (count + n).
      mean = (mean * count + chunk_mean * n) / (count + n);
      m2 += chunk_m2;
      count += n;
    }
    const float rstd = 1.0f / std::sqrt(m2 / count + eps);
    for (int64_t i = 0; i < row; ++i) y[r * row + i] = (in[i] - mean) * rstd * weight[i] + bias[i];
  }
  return KBV_STATUS_OK;
}
