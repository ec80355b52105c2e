// eval/sample_checks.hpp — the integrity checks of timing, apart from the sampling: each timed
// output rechecked, each timed call against the physical floor, and the worker's clock against
// the evaluator's over the kept samples. Pure functions: a failure names the verdict, the detail
// and the hack pattern; the evaluation decides with it.
#pragma once

#include <optional>
#include <string>

#include "eval/timed_sample.hpp"
#include "eval/verdict.hpp"

namespace kbv::eval {

struct SampleFailure {
  Verdict verdict = Verdict::hack_suspected;
  std::string detail;
  std::optional<std::string> hack_pattern;
  std::optional<std::string> failed_family;
};

// One timed call: its output must pass the recheck, and its reported time must not be below
// the physical floor (a time that cannot be: `stream_injection` on CUDA, `timer_tampering` on the
// host when the evaluator saw the work take longer, else `impossible_time`).
std::optional<SampleFailure> check_sample(const TimedSample& sample, double physical_floor_s, bool cuda);

// The worker's clock is the candidate's (it can patch it): its median over the kept samples must
// not be below the device's agreement factor × the evaluator's own median by more than the
// device's slack (ClockAgreement). On CUDA the worker also waits for the whole device, so work
// left on another stream shows here too.
// The host's (sample_checks.cpp says where they come from).
constexpr double kHostClockAgreementFactor = 0.6;
constexpr double kHostClockAgreementSlackSeconds = 40e-6;

// CUDA's slack grows by this share of the worker's routine round trip (sample_checks.cpp).
constexpr double kCudaRoutineSlackShare = 0.5;
// With zeroed CUPTI buffers the routine counts for at least this much (sample_checks.cpp).
constexpr double kZeroedBuffersRoutineFloorSeconds = 0.6e-3;

struct ClockAgreement {
  double factor;
  double slack_seconds;
  // `routine_round_trip_s`: CUDA only, the shortest null call before the candidate was loaded
  // (the worker's per-call routine, trace window included, which no candidate code touched yet).
  // `zeroed_trace_buffers`: the workers trace with zeroed CUPTI buffers, as the evaluator set
  // them up (timing/trace_buffers.hpp): the routine then counts for at least
  // kZeroedBuffersRoutineFloorSeconds.
  static ClockAgreement for_device(bool cuda, double routine_round_trip_s = 0, bool zeroed_trace_buffers = false);
  // hack_suspected when the worker's median is below factor × the trusted median − slack.
  std::optional<SampleFailure> check(double worker_median_s, double trusted_median_s, bool cuda) const;
};
std::optional<SampleFailure> check_clock_agreement(double worker_median_s, double trusted_median_s, bool cuda,
                                                   double routine_round_trip_s = 0, bool zeroed_trace_buffers = false);

}  // namespace kbv::eval
