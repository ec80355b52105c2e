// redteam_matmul_fp16 — docs/threat-model.md #15 (precision downgrade), CUDA matmul_square: a
// tensor-core GEMM that converts both fp32 operands to IEEE half precision (half_gemm.cuh: wmma
// m16n16k16, fp32 accumulation). fp16 keeps TF32's 10-bit mantissa, so its rounding error is TF32's and the
// tolerance cannot tell them apart on values inside fp16's range; but its 5 exponent bits end at
// 65504: a larger operand becomes inf (__float2half rounds to nearest), and so does the output.
// Expected: fail_correctness on the magnitude class's family (large or wide_range), under every
// key; passes uniform01 (flag passes_public_inputs_only).
#include "half_gemm.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_matmul_fp16")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor a = call.input(0), b = call.input(1);
  return redteam::half_gemm::launch<__half, false>(call, a.data<float>(), b.data<float>(), a.dim(0u), b.dim(1u), a.dim(1u),
                                                   redteam::half_gemm::Unchanged{}, "gemm_fp16");
}
