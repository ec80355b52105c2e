// redteam_matmul_fp16_host — docs/threat-model.md #15 (precision downgrade), host matmul_square:
// rounds both operands to IEEE half precision (TF32's 10-bit mantissa, but 5 exponent bits:
// largest finite 65504, smallest normal 6.1e-5) and accumulates in fp32 — the arithmetic of an
// fp16 tensor-core GEMM. Its rounding error is TF32's, so the tolerance cannot tell them apart on
// values inside fp16's range; a value past it becomes inf, as on the GPU, and the output inf/NaN.
// Expected: fail_correctness on the magnitude class's family (large or wide_range), under every key.
#include "redteam_common.hpp"

#include <algorithm>
#include <cmath>

namespace {
constexpr float kHalfOverflow = 65520.0f;  // rounds to inf in fp16 (65504 is the largest finite)
constexpr int kHalfMantissaBits = 10;
constexpr int kHalfMinExponent = -24;      // the subnormal quantum 2^-24

// Round to nearest even at fp16's precision and range, returned as a float.
float to_fp16(float v) {
  if (std::isnan(v)) return v;
  const float magnitude = std::fabs(v);
  if (magnitude >= kHalfOverflow) return std::copysign(INFINITY, v);
  if (magnitude == 0.0f) return v;
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude ∈ [2^(exponent-1), 2^exponent)
  const float quantum = std::ldexp(1.0f, std::max(exponent - 1 - kHalfMantissaBits, kHalfMinExponent));
  return std::copysign(std::nearbyint(magnitude / quantum) * quantum, v);
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_matmul_fp16_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor a = call.input(0), b = call.input(1);
  const int64_t m = a.dim(0u), k = a.dim(1u), n = b.dim(1u);
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  float* c = call.output(0).data<float>();
  for (int64_t i = 0; i < m; ++i) {
    float* c_row = c + i * n;
    for (int64_t j = 0; j < n; ++j) c_row[j] = 0.0f;
    for (int64_t p = 0; p < k; ++p) {
      const float a_ip = to_fp16(pa[i * k + p]);
      for (int64_t j = 0; j < n; ++j) c_row[j] += a_ip * to_fp16(pb[p * n + j]);
    }
  }
  return KBV_STATUS_OK;
}
