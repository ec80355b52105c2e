// tests/sdk/candidates/throws_in_run.cpp — run() throws a std::runtime_error: the helper must return
// KBV_STATUS_INTERNAL with a text that says it was a C++ exception, and where.
#include <kbv/plugin.hpp>

#include <stdexcept>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "throws_in_run")
kbv_status kbv_candidate_run(kbv::Call&) { throw std::runtime_error("boom"); }
