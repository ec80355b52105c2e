// cuda kb_l2_76_gemm_add_relu (wmma TF32, fused) — y = relu(x·Wᵀ + bias): the Linear has no bias of
// its own, the added bias vector is the GEMM epilogue's (linear_chain.cuh).
#include "linear_chain.cuh"

namespace {
struct Relu {
  __device__ float operator()(float z) const { return fmaxf(z, 0.0f); }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "gemm_add_relu_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) { return linear_chain::run(call, Relu{}, "gemm_add_relu_wmma_tf32"); }
