// host bmm — c[B,M,N] = a[B,M,K] · b[B,K,N], one fp32 matmul per batch entry.
#include "host_common.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "bmm_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  using host_candidate::expect;
  if (!host_candidate::expect_f32(call, 2, 1)) return KBV_STATUS_INVALID_ARGUMENT;
  const kbv::Tensor a = call.input(0), b = call.input(1), c = call.output(0);
  const int64_t batch = a.dim(0), m = a.dim(1), k = a.dim(2), n = b.dim(2);
  if (!expect(a.rank() == 3 && b.rank() == 3 && b.dim(0) == batch && b.dim(1) == k &&
                  c.numel() == batch * m * n,
              "expected a[B,M,K], b[B,K,N] and c[B,M,N]"))
    return KBV_STATUS_INVALID_ARGUMENT;
  for (int64_t i = 0; i < batch; ++i)
    host_candidate::matmul(a.data<float>() + i * m * k, b.data<float>() + i * k * n,
                           c.data<float>() + i * m * n, m, k, n);
  return KBV_STATUS_OK;
}
