// cuda kb_l2_70_gemm_sigmoid_scaling_residualadd (wmma TF32, fused) — y = s · sigmoid(z) + z,
// z = x·Wᵀ + b, in the GEMM epilogue (linear_chain.cuh).
#include "linear_chain.cuh"

namespace {
struct SigmoidScaleResidual {
  float scale;
  __device__ float operator()(float z) const { return linear_chain::sigmoid(z) * scale + z; }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "gemm_sigmoid_scaling_residualadd_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  return linear_chain::run(call, SigmoidScaleResidual{static_cast<float>(call.attribute("mul.value", 2.0))},
                           "gemm_sigmoid_scaling_residualadd_wmma_tf32");
}
