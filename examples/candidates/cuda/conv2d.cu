// cuda conv2d (implicit GEMM, TF32) — y = conv2d(x, weight) without bias, as an implicit GEMM
// on TF32 tensor cores (conv_implicit_gemm.cuh; cuDNN's default for fp32 in PyTorch is TF32 too).
#include "conv_implicit_gemm.cuh"

namespace {
struct Plain {
  __device__ float operator()(int, float v) const { return v; }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "conv2d_implicit_gemm_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!cuda_candidate::expect_f32(call, 2, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  return conv_candidate::run(call, Plain{}, "conv2d_implicit_gemm_tf32");
}
