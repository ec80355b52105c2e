// timing/trace_buffers.hpp — how CUDA workers trace, as both sides must read it alike: whether the
// CUPTI trace is on (KBV_WORKER_TRACE=off turns it off) and whether the workers hand CUPTI zeroed
// activity buffers (KBV_WORKER_CUPTI_ZEROED=off hands it none). The worker sets its tracer from
// these; the evaluator, which passes the same environment on to every worker
// (eval/worker_process.cpp), sets its clock agreement from them (eval/sample_checks.hpp), never
// from what a worker, the candidate's process, says it did.
#pragma once

#include <cstdlib>
#include <string_view>

namespace kbv::timing {

inline bool workers_trace_with_cupti() {
  const char* trace = std::getenv("KBV_WORKER_TRACE");
  return !(trace && std::string_view(trace) == "off");
}

// Zeroed buffers: CUPTI otherwise zeroes its 8 MiB buffer in the launching thread at the first
// launch after every flush, 0.3–0.75 ms of each traced call's host time (H100, r67:
// docs/results/h100/batch.md).
inline bool workers_hand_cupti_zeroed_buffers() {
  const char* zeroed = std::getenv("KBV_WORKER_CUPTI_ZEROED");
  return !(zeroed && std::string_view(zeroed) == "off");
}

// The report's name for the buffers the workers trace into (environment.trace_buffers).
inline const char* workers_trace_buffers_name() {
  return workers_hand_cupti_zeroed_buffers() ? "zeroed by kbv" : "CUPTI's own (KBV_WORKER_CUPTI_ZEROED=off)";
}

}  // namespace kbv::timing
