// cuda matmul_scale_residual (wmma TF32, fused) — z = x · weightᵀ + bias; y = z·scale + z, all
// in the TF32 tensor-core GEMM's epilogue (tf32_gemm.cuh): one pass over y.
#include "tf32_gemm.cuh"

namespace {
constexpr const char* kScaleAttribute = "scaling.value";
constexpr double kDefaultScale = 0.5;  // KernelBench L2 #40's scaling_factor
struct ScaleResidual {
  float scale;
  __device__ float operator()(float z) const { return z * scale + z; }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "matmul_scale_residual_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using cuda_candidate::expect;
  if (!cuda_candidate::expect_f32(call, 3, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor x = call.input(0), w = call.input(1);
  const int64_t m = x.dim(0u), k = x.dim(1u), n = w.dim(0u);
  if (!expect(x.rank() == 2 && w.rank() == 2 && w.dim(1u) == k && call.input(2).numel() == n &&
                  call.output(0).numel() == m * n,
              "expected x[M,K], weight[N,K], bias[N] and y[M,N]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const ScaleResidual epilogue{static_cast<float>(call.attribute(kScaleAttribute, kDefaultScale))};
  const tf32_gemm::Linear<ScaleResidual> p{x.data<float>(), w.data<float>(), call.input(2).data<float>(),
                                           call.output(0).data<float>(), m, n, k, 1, epilogue};
  return tf32_gemm::launch(p, cuda_candidate::stream_of(call), "matmul_scale_residual_wmma_tf32");
}
