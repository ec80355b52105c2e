// cuda conv2d_relu_biasadd (implicit GEMM, TF32, fused) — y = relu(conv2d(x, weight) + conv_bias)
// + bias: the convolution runs as an implicit GEMM on TF32 tensor cores (conv_implicit_gemm.cuh)
// and conv_bias, relu and the bias add happen in its epilogue, in one write of y.
#include "conv_implicit_gemm.cuh"

namespace {
struct BiasReluBias {
  const float* conv_bias;
  const float* bias;
  __device__ float operator()(int o, float v) const {
    const float z = v + conv_bias[o];
    return (z < 0.0f ? 0.0f : z) + bias[o];
  }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "conv2d_relu_biasadd_implicit_gemm_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using cuda_candidate::expect;
  if (!cuda_candidate::expect_f32(call, 4, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const int64_t out_channels = call.input(1).dim(0u);
  if (!expect(call.input(2).numel() == out_channels && call.input(3).numel() == out_channels,
              "expected conv_bias[O] and bias[O,1,1]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const BiasReluBias epilogue{call.input(2).data<float>(), call.input(3).data<float>()};
  return conv_candidate::run(call, epilogue, "conv2d_relu_biasadd_implicit_gemm_tf32");
}
