// hostile_relu_exit — a candidate that calls exit(0) inside run(), so the worker ends with a
// "success" status in the middle of a call.
// Expected verdict: crash (the worker died mid-call, whatever its exit status).
#include <kbv/plugin.hpp>

#include <cstdlib>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_exit")

kbv_status kbv_candidate_run(kbv::Call&) { std::exit(0); }
