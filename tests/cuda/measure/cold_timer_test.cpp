// tests/cuda/measure/cold_timer_test.cpp — the cold timer reads a kernel of known duration
// correctly: a clock64 spin of fixed cycles lasts cycles / SM clock; its median must be within
// 10 % of that. Also checks the stop rule's outcome and the call indices given to callables.
#include <cmath>
#include <cstdio>
#include <variant>
#include <vector>

#include "gpu_test_support.hpp"
#include "measure/timing/cold_timer.hpp"

namespace kbv::cuda::measure_testing {
namespace {

constexpr double kAllowedRelativeError = 0.10;  // the brief's bound for the timer

TEST_F(GpuTest, MedianOfSpinKernelMatchesItsCycleCount) {
  const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
  ColdTimer timer(stream.get());
  std::printf("clock source: %s, default SM clock %.0f MHz, flush buffer %zu MiB\n",
              timer.clock_source().c_str(), timer.default_clock_mhz(),
              timer.flush_bytes() >> 20);
  // About 2 ms at the default clock: launch and event overheads (a few µs) stay under 1 %.
  constexpr double kTargetSeconds = 2e-3;
  const auto cycles = static_cast<long long>(kTargetSeconds * timer.default_clock_mhz() * 1e6);
  ASSERT_GT(cycles, 0) << "the device reports no default SM clock";
  const TimingResult r =
      timer.measure([&](cudaStream_t s, uint64_t) { launch_spin_cycles(cycles, s); });
  std::printf("spin %lld cycles: median %.4f ms, IQR %.4f ms, min %.4f, max %.4f, %zu samples, "
              "%zu throttled, clock %.0f MHz, noise %.3f%%, warm-up calls %zu, wall %.2f s%s\n",
              cycles, r.median_s * 1e3, r.iqr_s * 1e3, r.min_s * 1e3, r.max_s * 1e3, r.samples,
              r.discarded_throttled, r.sm_clock_mhz_median, r.noise * 100, r.warmup_calls,
              r.wall_seconds, r.hit_wall_cap ? " (hit the wall cap)" : "");
  if (r.sm_clock_mhz_median <= 0) GTEST_SKIP() << "the SM clock could not be read";
  const double expected = static_cast<double>(cycles) / (r.sm_clock_mhz_median * 1e6);
  std::printf("expected %.4f ms at the measured clock; error %.2f%%\n", expected * 1e3,
              (r.median_s / expected - 1) * 100);
  EXPECT_NEAR(r.median_s, expected, kAllowedRelativeError * expected);
  const auto& stdrel = std::get<timing::StdrelParams>(timer.rule().criterion);
  EXPECT_GE(r.samples, stdrel.min_samples);
  EXPECT_TRUE(r.hit_wall_cap || r.gpu_seconds > stdrel.min_measured_seconds);
}

TEST_F(GpuTest, GlobaltimerSpinReadsItsDuration) {
  const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
  ColdTimer timer(stream.get());
  constexpr unsigned long long kNanoseconds = 1'000'000;  // 1 ms, independent of the clock
  const TimingResult r =
      timer.measure([&](cudaStream_t s, uint64_t) { launch_spin_ns(kNanoseconds, s); });
  std::printf("globaltimer spin 1 ms: median %.4f ms, IQR %.4f ms, %zu samples, noise %.3f%%\n",
              r.median_s * 1e3, r.iqr_s * 1e3, r.samples, r.noise * 100);
  EXPECT_NEAR(r.median_s, 1e-3, kAllowedRelativeError * 1e-3);
}

TEST_F(GpuTest, InterleavedCallablesGetRunningCallIndices) {
  const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
  StopRule quick = StopRule::nvbench_defaults();
  quick.criterion = timing::StdrelParams{.min_measured_seconds = 0.01};
  quick.warm_up.wall_seconds = 0.01;
  ColdTimer timer(stream.get(), quick);
  std::vector<std::vector<uint64_t>> seen(2);
  const auto results = timer.measure_interleaved(
      {[&](cudaStream_t s, uint64_t i) { seen[0].push_back(i); launch_spin_ns(100'000, s); },
       [&](cudaStream_t s, uint64_t i) { seen[1].push_back(i); launch_spin_ns(200'000, s); }});
  for (size_t c = 0; c < 2; ++c) {
    ASSERT_FALSE(seen[c].empty());
    for (size_t i = 0; i < seen[c].size(); ++i) EXPECT_EQ(seen[c][i], i);
    EXPECT_EQ(results[c].samples + results[c].discarded_throttled + results[c].warmup_calls,
              seen[c].size());
  }
  std::printf("100 us: %.4f ms, 200 us: %.4f ms\n", results[0].median_s * 1e3,
              results[1].median_s * 1e3);
  EXPECT_LT(results[0].median_s, results[1].median_s);
}

// A rule with max_duty idles after each sample: the GPU works at most that share of the wall,
// and the unpaced timer, on the same work, works far more of it (calibration's pacing,
// timing/duty_pace.hpp).
TEST_F(GpuTest, APacedRuleKeepsTheGpuBusyAtMostItsDuty) {
  const measure::Stream stream = measure::make_stream(cudaStreamNonBlocking);
  auto quick = [](double max_duty) {
    StopRule rule = StopRule::calibration(max_duty);
    rule.criterion = timing::StdrelParams{.min_measured_seconds = 0.05};
    rule.warm_up.wall_seconds = 0.01;
    return rule;
  };
  constexpr double kDuty = 0.2;
  ColdTimer paced(stream.get(), quick(kDuty)), unpaced(stream.get(), quick(1.0));
  const auto spin = [&](cudaStream_t s, uint64_t) { launch_spin_ns(1'000'000, s); };
  const TimingResult a = paced.measure(spin), b = unpaced.measure(spin);
  std::printf("1 ms spin: paced to %.2f: duty %.3f, wall %.3f s, %zu samples, median %.4f ms; unpaced: duty %.3f, wall %.3f s, "
              "%zu samples, median %.4f ms\n",
              kDuty, a.duty, a.wall_seconds, a.samples, a.median_s * 1e3, b.duty, b.wall_seconds, b.samples, b.median_s * 1e3);
  EXPECT_LE(a.duty, kDuty * 1.001);
  EXPECT_GT(a.duty, kDuty * 0.8) << "the pause is what the duty asks, not more (host sleep overshoot aside)";
  EXPECT_GT(b.duty, 0.5) << "an unpaced 1 ms sample with its flush and gate takes little more than 1 ms of wall";
  EXPECT_NEAR(a.median_s, b.median_s, kAllowedRelativeError * b.median_s) << "pacing changes the wall, not a globaltimer spin's time";
}

}  // namespace
}  // namespace kbv::cuda::measure_testing
