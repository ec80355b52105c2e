// cuda kb_l2_63_gemm_relu_divide (wmma TF32, fused) — y = relu(x·Wᵀ + b) · s (the division by a
// constant is the problem's scale node), one GEMM with both in its epilogue (linear_chain.cuh).
#include "linear_chain.cuh"

namespace {
struct ReluScale {
  float scale;
  __device__ float operator()(float z) const { return fmaxf(z, 0.0f) * scale; }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "gemm_relu_divide_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  return linear_chain::run(call, ReluScale{static_cast<float>(call.attribute("div.value", 0.5))}, "gemm_relu_divide_wmma_tf32");
}
