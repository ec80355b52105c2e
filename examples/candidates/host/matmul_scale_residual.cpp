// host matmul_scale_residual — z = x[M,K] · weight[N,K]ᵀ + bias[N]; y = z·scale + z
// (KernelBench L2 #40, scale 0.5), with the scale and residual fused into the GEMM's epilogue.
#include "host_common.hpp"

namespace {
constexpr const char* kScaleAttribute = "scaling.value";
constexpr double kDefaultScale = 0.5;  // KernelBench L2 #40's scaling_factor
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "matmul_scale_residual_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 3, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0), w = call.input(1);
  const int64_t m = x.dim(0), k = x.dim(1), n = w.dim(0);
  if (!expect(x.rank() == 2 && w.rank() == 2 && w.dim(1) == k && call.input(2).numel() == n &&
                  call.output(0).numel() == m * n,
              "expected x[M,K], weight[N,K], bias[N] and y[M,N]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const auto scale = static_cast<float>(call.attribute(kScaleAttribute, kDefaultScale));
  host_candidate::linear(x.data<float>(), w.data<float>(), call.input(2).data<float>(),
                         call.output(0).data<float>(), m, k, n,
                         [scale](float z) { return z * scale + z; });
  return KBV_STATUS_OK;
}
