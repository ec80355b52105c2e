// redteam_garbage_reads_host — docs/threat-model.md, pattern 16 (garbage reads), host sum_dim1: accumulates
// into y without clearing it first, so it reads whatever the output buffer held. It passes on
// a freshly zeroed buffer (as torch.empty often is, by luck) and nowhere else.
// Expected: fail_correctness (kbv poisons outputs before every call).
#include "redteam_common.hpp"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_garbage_reads_host")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0);
  const int64_t outer = x.dim(0u), extent = x.dim(1u), inner = x.dim(2u);
  float* y = call.output(0).data<float>();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t a = 0; a < extent; ++a)
      for (int64_t i = 0; i < inner; ++i) y[o * inner + i] += x.data<float>()[(o * extent + a) * inner + i];
  return KBV_STATUS_OK;
}
