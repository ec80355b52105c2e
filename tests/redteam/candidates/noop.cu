// redteam_noop — docs/threat-model.md, pattern 9 (no-op / stale output), CUDA relu: launches nothing and
// returns OK, counting on the output buffer still holding an earlier correct result.
// Expected: fail_correctness (outputs are poisoned before every call).
#include "redteam_common.cuh"

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_noop")

kbv_status kbv_candidate_run(kbv::Call&) { return KBV_STATUS_OK; }
