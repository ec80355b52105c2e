// hostile_relu_noop — docs/threat-model.md, pattern 9 (no-op / stale output): returns OK without writing y,
// hoping the output buffer still holds a previous (correct) result.
// Expected verdict: fail_correctness (kbv poisons outputs before every call).
#include <kbv/plugin.hpp>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_noop")

kbv_status kbv_candidate_run(kbv::Call&) { return KBV_STATUS_OK; }
