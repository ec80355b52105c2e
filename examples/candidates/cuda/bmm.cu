// cuda bmm (wmma TF32) — c[b] = a[b] · b[b] for every batch entry (grid z), TF32 tensor cores
// with fp32 accumulation (tf32_gemm.cuh); any B, M, K, N.
#include "tf32_gemm.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "bmm_wmma_tf32")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using cuda_candidate::expect;
  if (!cuda_candidate::expect_f32(call, 2, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor a = call.input(0), b = call.input(1), c = call.output(0);
  const int64_t batches = a.dim(0u);
  if (!expect(a.rank() == 3 && b.rank() == 3 && b.dim(0u) == batches && b.dim(1u) == a.dim(2u) &&
                  c.numel() == batches * a.dim(1u) * b.dim(2u) && batches <= tf32_gemm::kMaxGridZ,
              "expected a[B,M,K], b[B,K,N] and c[B,M,N] with B <= 65535"))
    return KBV_STATUS_INVALID_ARGUMENT;
  const tf32_gemm::Matmul p{a.data<float>(), b.data<float>(), c.data<float>(), a.dim(1u), b.dim(2u), a.dim(2u),
                            static_cast<int>(batches)};
  return tf32_gemm::launch(p, cuda_candidate::stream_of(call), "bmm_wmma_tf32");
}
