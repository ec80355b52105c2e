// hostile_relu_abort — a candidate that calls abort() inside run().
// Expected verdict: crash (the worker dies of SIGABRT).
#include <kbv/plugin.hpp>

#include <cstdlib>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_abort")

kbv_status kbv_candidate_run(kbv::Call&) { std::abort(); }
