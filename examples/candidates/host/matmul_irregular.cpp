// host matmul_irregular — c[M,N] = a[M,K] · b[K,N] in fp32 (i-k-j loop order, see host_common.hpp);
// every dimension is read from the tensors, so any shape works.
#include "host_common.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "matmul_irregular_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 2, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor a = call.input(0), b = call.input(1), c = call.output(0);
  const int64_t m = a.dim(0), k = a.dim(1), n = b.dim(1);
  if (!expect(a.rank() == 2 && b.rank() == 2 && b.dim(0) == k && c.numel() == m * n,
              "expected a[M,K], b[K,N] and c[M,N]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  host_candidate::matmul(a.data<float>(), b.data<float>(), c.data<float>(), m, k, n);
  return KBV_STATUS_OK;
}
