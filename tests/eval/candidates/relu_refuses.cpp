// hostile_relu_refuses — a candidate whose run() returns KBV_STATUS_UNSUPPORTED without calling
// set_error: what a newcomer's "not implemented yet" stub does.
// Expected verdict: fail_correctness; the detail names the status, says the candidate refused
// the call and that it gave no reason, and points at set_error().
#include <kbv/plugin.hpp>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_refuses")

kbv_status kbv_candidate_run(kbv::Call&) { return KBV_STATUS_UNSUPPORTED; }
