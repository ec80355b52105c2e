// host gemm_bias_gelu — y = gelu(x[M,K] · weight[N,K]ᵀ + bias[N]), exact erf GELU fused into
// the GEMM's epilogue (one pass, no intermediate tensor).
#include "host_common.hpp"

#include <cmath>

namespace {
constexpr float kInvSqrt2 = 0.70710678118654752440f;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "gemm_bias_gelu_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 3, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0), w = call.input(1);
  const int64_t m = x.dim(0), k = x.dim(1), n = w.dim(0);
  if (!expect(x.rank() == 2 && w.rank() == 2 && w.dim(1) == k && call.input(2).numel() == n &&
                  call.output(0).numel() == m * n,
              "expected x[M,K], weight[N,K], bias[N] and y[M,N]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  host_candidate::linear(x.data<float>(), w.data<float>(), call.input(2).data<float>(),
                         call.output(0).data<float>(), m, k, n,
                         [](float z) { return 0.5f * z * (1.0f + std::erf(z * kInvSqrt2)); });
  return KBV_STATUS_OK;
}
