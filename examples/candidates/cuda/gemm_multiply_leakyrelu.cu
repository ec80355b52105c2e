// cuda kb_l2_12_gemm_multiply_leakyrelu (wmma TF32, fused) — y = leaky_relu(s · (x·Wᵀ + b)), one
// GEMM with the scale and the leaky ReLU in its epilogue (linear_chain.cuh).
#include "linear_chain.cuh"

namespace {
struct ScaleLeakyRelu {
  float scale, slope;
  __device__ float operator()(float z) const {
    z *= scale;
    return z > 0.0f ? z : z * slope;
  }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "gemm_multiply_leakyrelu_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const ScaleLeakyRelu epilogue{static_cast<float>(call.attribute("mul.value", 2.0)),
                                static_cast<float>(call.attribute("leaky_relu.negative_slope", 0.1))};
  return linear_chain::run(call, epilogue, "gemm_multiply_leakyrelu_wmma_tf32");
}
