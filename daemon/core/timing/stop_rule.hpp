// timing/stop_rule.hpp — how a timed callable is sampled: its stop criterion's parameters, its
// warm-up, its wall and call caps and the throttle threshold, in named presets, each constant
// defined once (NVBench's here, the evaluator's in stop_rule.cpp). The CUDA cold timer (cuda/measure/timing/cold_timer) samples each baseline
// with nvbench_defaults(); the evaluator samples its interleaved candidate-and-baselines
// measurement with evaluator_cuda() or evaluator_host().
#pragma once

#include <cstddef>
#include <limits>
#include <variant>

namespace kbv::timing {

// NVBench's "stdrel" criterion (nvbench/detail/stdrel_criterion.cxx, measure_cold.cu), its
// defaults: stdrel_criterion.hpp.
struct StdrelParams {
  size_t min_samples = 10;            // NVBench --min-samples default
  double min_measured_seconds = 0.5;  // NVBench stdrel --min-time default: GPU time of whole measurements
  double max_noise = 0.005;           // NVBench stdrel --max-noise default (0.5 % relative stdev)
  // Not NVBench's: once the minimums above are met, stop when the kept samples' wall time reaches
  // this (StopReason::budget_spent) even if the noise neither met its target nor settled on a
  // plateau. Infinite in NVBench's preset; the evaluator's sets it (stop_rule.cpp says why).
  double settled_wall_seconds = std::numeric_limits<double>::infinity();
  // Not NVBench's: once the minimums above are met, also stop when the median is known to within
  // this share (StopReason::median_precise: the relative half-width of its 95 % confidence
  // interval, stdrel_criterion.hpp). 0, off, in NVBench's preset; the evaluator's sets it
  // (stop_rule.cpp says why).
  double max_median_error = 0;
};

// The host device's budget: host_budget_criterion.hpp.
struct HostBudgetParams {
  size_t min_samples = 10;
  // Host problems are tiny (small shapes, µs to ms per call): 50 ms of the candidate's own time
  // is hundreds of calls, enough for a stable median; NVBench's 0.5 s is for GPU kernels.
  double min_candidate_seconds = 0.05;
  // The timing phase's wall budget once min_samples are in: evaluator_host() sets it from
  // EvalOptions::timing_budget_s.
  double wall_budget_seconds = 0;
};

// Warm-up ends, after at least one call, when any limit that is set (non-zero) is reached.
struct WarmUpRule {
  double wall_seconds = 0;   // wall time spent warming up
  double timed_seconds = 0;  // the timed callable's own time, summed
  size_t max_calls = 0;      // calls
};

// The GPU duty `kbv calibrate --torch` paces both of its timers to. In the 2026-12-04 H200
// calibration every PyTorch contender sampled at 0.00–0.39 of its wall and ran at 1980 MHz (the
// top clock) throughout, while the unpaced library (≈ 1) ran its TF32 GEMMs at 1680–1860 MHz
// (docs/results/torch-baselines.json; bench/calibrate/analysis/clock_confound.py): 0.25 is below
// the busiest duty seen at the top clock, and costs a calibration 4× the library's GPU time in wall.
inline constexpr double kCalibrationMaxDuty = 0.25;

// A default StopRule is NVBench's (nvbench_defaults()).
struct StopRule {
  std::variant<StdrelParams, HostBudgetParams> criterion = StdrelParams{};
  // A GPU timed straight from idle reads slow while its clocks rise: triton-lang/triton#2306
  // measured do_bench's 25 ms warm-up 30 % slow, settled only beyond 150 ms; 0.2 s clears that.
  WarmUpRule warm_up{.wall_seconds = 0.2};
  double max_wall_seconds = 15.0;            // NVBench --timeout default: sampling ends here, finished or not
  size_t max_calls = std::numeric_limits<size_t>::max();  // calls, warm-up and throttled ones included
  double throttle_threshold = 0.75;          // NVBench --throttle-threshold default: share of the default SM clock
  double throttle_recovery_seconds = 0.05;   // NVBench --throttle-recovery-delay default
  // The largest share of the sampling wall the timed work may take: after each sample (warm-up
  // included) the timer idles until the sample's timed window is at most this share of its wall
  // (duty_pace.hpp says why). 1 (NVBench's and the evaluator's): no pacing.
  double max_duty = 1.0;

  // What the cold timer uses for each baseline.
  static StopRule nvbench_defaults() { return {}; }
  // The evaluator on a CUDA device: NVBench's stopping, a warm-up of 25 ms of the candidate's
  // own time or 32 calls, whichever comes first, at most 2000 calls (stop_rule.cpp says why).
  static StopRule evaluator_cuda();
  // The evaluator on the host device: the host budget, no warm-up, no throttle, no wall cap
  // beyond the budget, at most 2000 calls.
  static StopRule evaluator_host(double wall_budget_seconds);
  // kbv calibrate --torch: NVBench's rule paced to `max_duty` (default kCalibrationMaxDuty), sent
  // as is to PyTorch's timer, so the library and PyTorch are timed with the GPU in one state.
  static StopRule calibration(double max_duty);
};

}  // namespace kbv::timing
