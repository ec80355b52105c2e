// cuda kb_l2_86_matmul_divide_gelu (wmma TF32, fused) — y = gelu((x·Wᵀ + b) · s), exact-erf GELU
// in the GEMM epilogue (linear_chain.cuh).
#include "linear_chain.cuh"

namespace {
struct ScaleGelu {
  float scale;
  __device__ float operator()(float z) const { return linear_chain::gelu(z * scale); }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "matmul_divide_gelu_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  return linear_chain::run(call, ScaleGelu{static_cast<float>(call.attribute("div.value", 0.1))}, "matmul_divide_gelu_wmma_tf32");
}
