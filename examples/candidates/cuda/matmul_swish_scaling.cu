// cuda kb_l2_59_matmul_swish_scaling (wmma TF32, fused) — y = s · z · sigmoid(z), z = x·Wᵀ + b,
// in the GEMM epilogue (linear_chain.cuh).
#include "linear_chain.cuh"

namespace {
struct SwishScale {
  float scale;
  __device__ float operator()(float z) const { return z * linear_chain::sigmoid(z) * scale; }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "matmul_swish_scaling_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  return linear_chain::run(call, SwishScale{static_cast<float>(call.attribute("mul_1.value", 2.0))}, "matmul_swish_scaling_wmma_tf32");
}
