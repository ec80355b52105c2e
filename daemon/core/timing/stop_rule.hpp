// timing/stop_rule.hpp — when to stop sampling, NVBench's "stdrel" criterion with its
// defaults (nvbench/detail/stdrel_criterion.cxx, measure_cold.cu; FIELD-NOTES §2). The CUDA
// timer (cuda/measure/timing/cold_timer) stops each baseline with it, the evaluator the
// interleaved candidate-and-baselines measurement.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <string>

#include "timing/sample_stats.hpp"

namespace kbv::timing {

struct StopRule {
  size_t min_samples = 10;          // NVBench --min-samples default
  double min_gpu_seconds = 0.5;     // NVBench stdrel --min-time default
  double max_noise = 0.005;         // NVBench stdrel --max-noise default (0.5 % rel. stdev)
  double max_wall_seconds = 15.0;   // NVBench --timeout default, per timed callable
  // Warm-up runs by wall time, not count: triton-lang/triton#2306 measured do_bench's 25 ms
  // default to read 30 % slow and settle only beyond 150 ms; 200 ms clears that.
  double warmup_wall_seconds = 0.2;
  double throttle_threshold = 0.75;          // NVBench --throttle-threshold default
  double throttle_recovery_seconds = 0.05;   // NVBench --throttle-recovery-delay default
};

// NVBench's stdrel: finished once the accumulated time exceeds min_gpu_seconds and either the
// relative standard deviation of all samples is below max_noise, or that noise has reached a
// plateau (checked every 16 samples once 64 noise values exist: the relative spread of the
// last ≤512 noise values around the current one is under 5 %).
class NoiseCriterion {
 public:
  explicit NoiseCriterion(const StopRule& rule) : rule_(rule) {}
  // One sample of the timed callable; its time counts towards min_gpu_seconds.
  void add(double seconds) { add(seconds, seconds); }
  // One sample whose measurement took `measured_seconds` of GPU time in all (the evaluator's
  // interleaved candidate and baselines, as NVBench counts one measurement's GPU time); the
  // noise is the sample's own.
  void add(double seconds, double measured_seconds);
  // …from input group `group` (the evaluator's input family). Once samples carry groups, the
  // noise is the relative standard deviation within groups, pooled: a kernel whose time
  // depends on its inputs' values (cuBLAS's TF32 GEMM at the power limit: 4 % between families,
  // 0.3–0.8 % within, H200 round w) is measured as precisely as any other, and its fixed share
  // of each family keeps the pooled median as stable. Use one form or the other throughout.
  void add(double seconds, double measured_seconds, const std::string& group);
  bool finished() const;
  double noise() const;  // relative standard deviation so far (0 before two samples; within groups once grouped)
  double total_seconds() const { return measured_seconds_; }
  size_t count() const { return moments_.count(); }

  static constexpr size_t kNoiseHistory = 512;        // NVBench's ring buffer
  static constexpr size_t kPlateauMinHistory = 64;    // values needed before a plateau check
  static constexpr size_t kPlateauCheckEvery = 16;    // samples between plateau checks
  static constexpr double kPlateauSpread = 0.05;      // relative spread that counts as flat

 private:
  StopRule rule_;
  void record_noise();

  RunningMoments moments_;
  std::map<std::string, RunningMoments> groups_;
  double measured_seconds_ = 0;
  std::deque<double> noise_history_;
};

}  // namespace kbv::timing
