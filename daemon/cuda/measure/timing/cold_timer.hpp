// measure/timing/cold_timer.hpp — NVBench-style cold timing of GPU work (nvbench/detail/measure_cold).
//
// One sample: reset persisting L2 lines, hold the stream with a launch gate (launch_gate.hpp),
// enqueue the L2 flush (l2_flush.hpp), a start event, the callable and a stop event, release
// the gate, wait, read the elapsed time, read the SM clock. The StopRule (core/timing/
// stop_rule.hpp, default StopRule::nvbench_defaults()) sets the rest: warm-up first; samples
// taken below its throttle threshold of the default SM clock are discarded (after a pause for
// the GPU to recover); sampling stops when its criterion is finished (stop_criterion.hpp) or at
// its wall cap. A rule with max_duty < 1 idles after each sample so the GPU works at most that
// share of the wall (timing/duty_pace.hpp; kbv calibrate --torch).
//
// Several callables (a candidate and its TF32 and FP32 baselines) are timed interleaved,
// round-robin, each with its own stop rule state, so drift in clocks or temperature hits them
// alike. Every call receives a running call index (warm-up calls included) so the caller can
// hand it a fresh input set: call i uses set i % sets, and nothing can be cached by pointer.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "timing/stop_rule.hpp"

namespace kbv::cuda {

using timing::StopRule;  // core/timing/stop_rule.hpp

// samples == 0 means no valid measurement (every sample throttled until the wall cap); the
// times are then 0 and must not be used.
struct TimingResult {
  double median_s = 0;
  double iqr_s = 0;
  double min_s = 0;
  double max_s = 0;
  size_t samples = 0;              // kept samples
  size_t discarded_throttled = 0;  // samples dropped for a clock below the threshold
  double sm_clock_mhz_median = 0;  // over kept samples; 0 when the clock could not be read
  double noise = 0;                // relative standard deviation of the kept samples (the criterion's)
  double gpu_seconds = 0;          // sum of kept samples
  double wall_seconds = 0;         // sampling wall time of this callable (warm-up excluded)
  double duty = 0;                 // timed windows of its samples (throttled ones too) / wall_seconds
  size_t warmup_calls = 0;
  bool hit_wall_cap = false;       // stopped by max_wall_seconds (or max_calls), not by the criterion
};

using TimedCall = std::function<void(cudaStream_t stream, uint64_t call_index)>;

class ColdTimer {
 public:
  // Times work on `stream` (which must belong to the current device).
  explicit ColdTimer(cudaStream_t stream, StopRule rule = StopRule::nvbench_defaults());
  ~ColdTimer();
  ColdTimer(const ColdTimer&) = delete;
  ColdTimer& operator=(const ColdTimer&) = delete;

  TimingResult measure(const TimedCall& call);
  // Results in the order of `calls`.
  std::vector<TimingResult> measure_interleaved(const std::vector<TimedCall>& calls);

  // One cold sample, outside any stop rule: seconds between the events around the call.
  double cold_sample(const TimedCall& call, uint64_t call_index);

  const StopRule& rule() const;
  std::string clock_source() const;
  double default_clock_mhz() const;
  size_t flush_bytes() const;
  // How samples are enqueued: behind a launch gate or not (LaunchGate::state()).
  std::string launch_gate_state() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kbv::cuda
