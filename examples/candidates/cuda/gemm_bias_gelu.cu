// cuda gemm_bias_gelu (wmma TF32, fused) — y = gelu(x · weightᵀ + bias): the TF32 tensor-core
// GEMM (tf32_gemm.cuh) adds the bias and applies exact-erf GELU in its epilogue, so the
// pre-activation never goes to memory.
#include "tf32_gemm.cuh"

namespace {
constexpr float kInvSqrt2 = 0.70710678118654752440f;
struct Gelu {
  __device__ float operator()(float z) const { return 0.5f * z * (1.0f + erff(z * kInvSqrt2)); }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "gemm_bias_gelu_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using cuda_candidate::expect;
  if (!cuda_candidate::expect_f32(call, 3, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0), w = call.input(1);
  const int64_t m = x.dim(0u), k = x.dim(1u), n = w.dim(0u);
  if (!expect(x.rank() == 2 && w.rank() == 2 && w.dim(1u) == k && call.input(2).numel() == n &&
                  call.output(0).numel() == m * n,
              "expected x[M,K], weight[N,K], bias[N] and y[M,N]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const tf32_gemm::Linear<Gelu> p{x.data<float>(), w.data<float>(), call.input(2).data<float>(),
                                  call.output(0).data<float>(), m, n, k, 1, Gelu{}};
  return tf32_gemm::launch(p, cuda_candidate::stream_of(call), "gemm_bias_gelu_wmma_tf32");
}
