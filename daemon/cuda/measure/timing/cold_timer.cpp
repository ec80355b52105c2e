// measure/timing/cold_timer.cpp — the sampling loop: warm-up, round-robin cold samples, throttle
// discards, stop criterion, summary.
#include "measure/timing/cold_timer.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <thread>

#include "measure/support/handles.hpp"
#include "measure/support/library_errors.hpp"
#include "measure/timing/l2_flush.hpp"
#include "measure/timing/launch_gate.hpp"
#include "measure/timing/sm_clock.hpp"
#include "timing/duty_pace.hpp"
#include "timing/sample_stats.hpp"
#include "timing/stop_criterion.hpp"
#include "timing/warm_up.hpp"

namespace kbv::cuda {
namespace {

using timing::SampleSummary;
using timing::StopCriterion;
using timing::summarize;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// NVBench's recovery back-off: after more than this many throttled samples in a row, the
// pause grows by min(1.5 × pause, kMaxRecoveryStep) each time.
constexpr int kThrottleStreakBeforeBackoff = 2;
constexpr double kMaxRecoveryStepSeconds = 0.5;

// One callable's sampling state.
struct Series {
  explicit Series(const StopRule& rule)
      : criterion(timing::make_criterion(rule)), warm_up(rule.warm_up), recovery_delay(rule.throttle_recovery_seconds) {}
  std::unique_ptr<StopCriterion> criterion;
  timing::WarmUp warm_up;
  std::vector<double> kept;
  std::vector<double> clocks;
  size_t discarded = 0;
  int throttle_streak = 0;
  double recovery_delay;
  double wall = 0;
  double busy = 0;  // timed windows of every sample, throttled ones included (warm-up excluded)
  uint64_t next_call = 0;
  bool done = false;
  bool capped = false;
};

}  // namespace

struct ColdTimer::Impl {
  Impl(cudaStream_t s, StopRule r)
      : stream(s), rule(r), start(measure::make_event(cudaEventDefault)),
        stop(measure::make_event(cudaEventDefault)) {}

  double cold_sample(const TimedCall& call, uint64_t index) {
    flusher.reset_persisting(stream);
    // The gate holds the stream while the sample is enqueued (launch_gate.hpp), as it does for
    // the candidate in the worker: the same recipe for every contender.
    const bool gated = gate.active();
    if (gated) gate.hold(stream);
    flusher.enqueue(stream, index);
    measure::check(cudaEventRecord(start.get(), stream), "cudaEventRecord(start)");
    call(stream, index);
    measure::check(cudaEventRecord(stop.get(), stream), "cudaEventRecord(stop)");
    if (gated) gate.release();
    measure::check(cudaEventSynchronize(stop.get()), "cudaEventSynchronize(stop)");
    if (gated) gate.settle();  // counts timeouts; gate.active() turns false on a waiting callable
    float ms = 0;
    measure::check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "cudaEventElapsedTime");
    constexpr double kSecondsPerMs = 1e-3;
    return ms * kSecondsPerMs;
  }

  // Idles so that this sample's timed window is at most rule.max_duty of its wall (duty_pace.hpp).
  void pace(double seconds, Clock::time_point begin) const {
    const double pause = timing::duty_pause_seconds(seconds, seconds_since(begin), rule.max_duty);
    if (pause > 0) std::this_thread::sleep_for(std::chrono::duration<double>(pause));
  }

  void warm_up(const TimedCall& call, Series& series) {
    while (!series.warm_up.done()) {
      const auto begin = Clock::now();
      const double seconds = cold_sample(call, series.next_call++);
      pace(seconds, begin);
      series.warm_up.add(seconds, seconds_since(begin));
    }
  }

  void take_sample(const TimedCall& call, Series& series) {
    const auto begin = Clock::now();
    const double seconds = cold_sample(call, series.next_call++);
    const double mhz = clock.sample_mhz(stream);
    const bool throttled = mhz > 0 && clock.default_mhz() > 0 &&
                           mhz < rule.throttle_threshold * clock.default_mhz();
    if (throttled) {
      ++series.discarded;
      if (++series.throttle_streak > kThrottleStreakBeforeBackoff)
        series.recovery_delay +=
            std::min(series.recovery_delay * 1.5, kMaxRecoveryStepSeconds);
      std::this_thread::sleep_for(std::chrono::duration<double>(series.recovery_delay));
    } else {
      series.throttle_streak = 0;
      series.kept.push_back(seconds);
      if (mhz > 0) series.clocks.push_back(mhz);
      series.criterion->add({.seconds = seconds, .measured_seconds = seconds, .wall_seconds = seconds_since(begin)});
    }
    pace(seconds, begin);
    series.busy += seconds;
    series.wall += seconds_since(begin);
    if (series.criterion->finished()) {
      series.done = true;
    } else if (series.wall >= rule.max_wall_seconds || series.next_call >= rule.max_calls) {
      series.done = true;
      series.capped = true;
    }
  }

  static TimingResult summarize_series(const Series& series) {
    TimingResult result;
    const SampleSummary times = summarize(series.kept);
    result.median_s = times.median;
    result.iqr_s = times.iqr;
    result.min_s = times.min;
    result.max_s = times.max;
    result.samples = times.count;
    result.discarded_throttled = series.discarded;
    result.sm_clock_mhz_median = summarize(series.clocks).median;
    result.noise = series.criterion->noise();
    result.gpu_seconds = std::accumulate(series.kept.begin(), series.kept.end(), 0.0);
    result.wall_seconds = series.wall;
    result.duty = series.wall > 0 ? series.busy / series.wall : 0;
    result.warmup_calls = series.warm_up.calls();
    result.hit_wall_cap = series.capped;
    return result;
  }

  cudaStream_t stream;
  StopRule rule;
  L2Flusher flusher;
  LaunchGate gate;
  SmClock clock;
  measure::Event start, stop;
};

ColdTimer::ColdTimer(cudaStream_t stream, StopRule rule)
    : impl_(std::make_unique<Impl>(stream, rule)) {}
ColdTimer::~ColdTimer() = default;

TimingResult ColdTimer::measure(const TimedCall& call) { return measure_interleaved({call})[0]; }

std::vector<TimingResult> ColdTimer::measure_interleaved(const std::vector<TimedCall>& calls) {
  std::vector<Series> series;
  for (size_t i = 0; i < calls.size(); ++i) series.emplace_back(impl_->rule);
  for (size_t i = 0; i < calls.size(); ++i) impl_->warm_up(calls[i], series[i]);
  // Round r starts at callable r mod N, so no callable always follows the same other one.
  for (size_t round = 0;; ++round) {
    bool any_left = false;
    for (size_t k = 0; k < calls.size(); ++k) {
      const size_t i = (round + k) % calls.size();
      if (series[i].done) continue;
      impl_->take_sample(calls[i], series[i]);
      any_left = any_left || !series[i].done;
    }
    if (!any_left) break;
  }
  std::vector<TimingResult> results;
  for (const Series& s : series) results.push_back(Impl::summarize_series(s));
  return results;
}

double ColdTimer::cold_sample(const TimedCall& call, uint64_t call_index) {
  return impl_->cold_sample(call, call_index);
}

const StopRule& ColdTimer::rule() const { return impl_->rule; }
std::string ColdTimer::clock_source() const { return impl_->clock.source(); }
double ColdTimer::default_clock_mhz() const { return impl_->clock.default_mhz(); }
size_t ColdTimer::flush_bytes() const { return impl_->flusher.buffer_bytes(); }
std::string ColdTimer::launch_gate_state() const { return impl_->gate.state(); }

}  // namespace kbv::cuda
