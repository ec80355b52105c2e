// redteam_precision_bf16_relu_host — docs/threat-model.md, pattern 15 (precision downgrade), host
// kb_l2_76_gemm_add_relu: y = relu(x·Wᵀ + bias) with both GEMM operands rounded to bfloat16
// (bf16_round.hpp), fp32 accumulation.
// Expected: fail_correctness by the precision check (verify/precision_signature.hpp). Against ‖y‖
// its relative L2 error is ≈ 1.6–1.8e-3, under the tensor-core class's 2e-3 on every family (the
// relu zeroes half the outputs and their error, the bias adds to ‖y‖ only): the tolerance passes it
// (bench/tolerance/bf16_after_bias_relu.py --k 64 --rows 96 --columns 48, the small shape set).
// Summed in fp32 on the host, its output is the bf16-operand reference to within fp32's rounding,
// thousands of times nearer it than the reference, on every family.
#include "bf16_round.hpp"
#include "redteam_common.hpp"

#include <algorithm>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_precision_bf16_relu_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0), w = call.input(1);
  const int64_t m = x.dim(0u), k = x.dim(1u), n = w.dim(0u);
  const float* px = x.data<float>();
  const float* pw = w.data<float>();
  const float* bias = call.input(2).data<float>();
  float* y = call.output(0).data<float>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int64_t p = 0; p < k; ++p) sum += redteam::to_bf16(px[i * k + p]) * redteam::to_bf16(pw[j * k + p]);
      y[i * n + j] = std::max(sum + bias[j], 0.0f);
    }
  return KBV_STATUS_OK;
}
