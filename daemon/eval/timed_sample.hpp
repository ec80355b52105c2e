// eval/timed_sample.hpp — one timed call of the candidate, with its baselines on the same fresh
// inputs (TimedSample), and the samples a timing phase keeps (TimingSeries, index for index).
// Filled by evaluation_timing.cpp, checked by sample_checks.hpp.
#pragma once

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eval/kernel_breakdown.hpp"
#include "eval/wait_correction.hpp"
#include "verify/compare.hpp"

namespace kbv::eval {

struct TimedSample {
  int call = 0;                  // running index in the phase, warm-up and throttled calls included
  std::string family;            // the input family its inputs were drawn from
  bool baselines_first = false;  // who went first, a keyed coin's choice
  double reported_s = 0;         // the candidate's time by the worker's clock
  double round_trip_s = 0;       // the call's round trip by the evaluator's clock
  double null_call_s = 0;        // the worker's routine around nothing: the latest null call's round trip (CUDA),
                                 // the shortest wait-corrected one so far (host, eval/wait_correction.hpp)
  double credited_wait_s = 0;    // host: run queue waits taken off the round trip (eval/wait_correction.hpp)
  std::optional<double> worker_on_cpu_s = std::nullopt;  // host: the worker's CPU time during the call, all its threads' summed
  std::optional<double> worker_longest_thread_on_cpu_s = std::nullopt;  // host: its largest one-thread CPU time
  double clock_ratio = 1;        // SM clock after the call against its default (1 on the host)
  std::vector<std::pair<std::string, double>> baselines;  // "tf32"/"fp32" → seconds, same inputs
  CompareResult recheck;                                   // the timed output against the TF32 baseline's
  std::optional<double> kernel_span_s;                     // traced calls: first kernel start to last kernel end
  std::vector<TracedKernel> kernels;                       // traced calls: the kernels in start order (diagnostic)
  double wall_s = 0;                                       // wall time the whole sample took

  // The call as the evaluator's clock saw it, beyond the worker's routine and the waits credited.
  double trusted_s() const { return trusted_call_s(round_trip_s, credited_wait_s, null_call_s); }
  // GPU time of the whole interleaved measurement, as NVBench counts one measurement.
  double measured_s() const {
    double total = reported_s;
    for (const auto& [name, seconds] : baselines) total += seconds;
    return total;
  }
};

struct TimingSeries {
  std::vector<double> candidate_s, trusted_s, clock_ratios, kernel_span_s;
  std::map<std::string, std::vector<double>> baseline_s;
  std::vector<std::vector<TracedKernel>> kernels;  // index for index, empty for an untraced call
  std::vector<bool> baselines_first;
  std::vector<std::string> families;
  std::vector<double> null_call_s;  // every null call's round trip, warm-up included
  double latest_null_call_s = 0;
  // Host with the wait correction: each kept sample's round trip and credited waits (the trusted
  // times are recomputed against the shortest null call of the whole phase), and every null
  // call's round trip less its own credited waits.
  std::vector<double> round_trip_s, credited_wait_s;
  NullCallFloor null_floor;
  // Host: each kept sample's worker time on a CPU (NaN where not read), and every null call's;
  // the same for the largest one-thread CPU time.
  std::vector<double> worker_on_cpu_s, null_call_on_cpu_s;
  std::vector<double> worker_longest_thread_on_cpu_s, null_call_longest_thread_on_cpu_s;
  int throttled = 0;                // samples dropped for a clock below the threshold

  void keep(const TimedSample& sample) {
    candidate_s.push_back(sample.reported_s);
    trusted_s.push_back(sample.trusted_s());
    round_trip_s.push_back(sample.round_trip_s);
    credited_wait_s.push_back(sample.credited_wait_s);
    worker_on_cpu_s.push_back(sample.worker_on_cpu_s.value_or(std::numeric_limits<double>::quiet_NaN()));
    worker_longest_thread_on_cpu_s.push_back(sample.worker_longest_thread_on_cpu_s.value_or(std::numeric_limits<double>::quiet_NaN()));
    clock_ratios.push_back(sample.clock_ratio);
    baselines_first.push_back(sample.baselines_first);
    families.push_back(sample.family);
    if (sample.kernel_span_s) kernel_span_s.push_back(*sample.kernel_span_s);
    kernels.push_back(sample.kernels);
    for (const auto& [name, seconds] : sample.baselines) baseline_s[name].push_back(seconds);
  }
};

}  // namespace kbv::eval
