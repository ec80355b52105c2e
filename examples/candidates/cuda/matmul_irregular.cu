// cuda matmul_irregular (wmma TF32) — c[M,N] = a[M,K] · b[K,N] on TF32 tensor cores
// (m16n16k8, 64×64 tiles, see tf32_gemm.cuh), fp32 accumulation; bounds checks on every edge
// make any M, K and N work (the default 8205×2949×5921 fits no tile size).
#include "tf32_gemm.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "matmul_irregular_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using cuda_candidate::expect;
  if (!cuda_candidate::expect_f32(call, 2, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor a = call.input(0), b = call.input(1), c = call.output(0);
  if (!expect(a.rank() == 2 && b.rank() == 2 && b.dim(0u) == a.dim(1u) && c.numel() == a.dim(0u) * b.dim(1u),
              "expected a[M,K], b[K,N] and c[M,N]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const tf32_gemm::Matmul p{a.data<float>(), b.data<float>(), c.data<float>(), a.dim(0u), b.dim(1u), a.dim(1u), 1};
  return tf32_gemm::launch(p, cuda_candidate::stream_of(call), "matmul_irregular_wmma_tf32");
}
