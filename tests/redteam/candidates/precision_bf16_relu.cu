// redteam_precision_bf16_relu — docs/threat-model.md, pattern 15 (precision downgrade), CUDA
// kb_l2_76_gemm_add_relu: y = relu(x·Wᵀ + bias) with a bf16 tensor-core GEMM (half_gemm.cuh).
// Expected: fail_correctness by the precision check (verify/precision_signature.hpp). The relu
// zeroes half the outputs and their error and the bias adds to ‖y‖ only, so its relative L2 error
// (≈ 1.6e-3) is under the tensor-core class's 2e-3 on every family: the tolerance passes it
// (bench/tolerance/bf16_after_bias_relu.py). Its output is the reference of bf16-rounded operands
// up to its accumulation, which the check sees on the zero-mean families.
#include "half_gemm.cuh"

namespace {
struct BiasRelu {
  const float* bias;
  __device__ float operator()(float value, int64_t column) const { return fmaxf(value + bias[column], 0.0f); }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_precision_bf16_relu")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0), w = call.input(1);
  return redteam::half_gemm::launch<__nv_bfloat16, true>(call, x.data<float>(), w.data<float>(), x.dim(0u), w.dim(0u), x.dim(1u),
                                                         BiasRelu{call.input(2).data<float>()}, "gemm_bf16_bias_relu");
}
