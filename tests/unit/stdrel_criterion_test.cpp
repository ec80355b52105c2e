// tests/unit/stdrel_criterion_test.cpp — NVBench's stdrel stopping criterion
// (core/timing/stdrel_criterion.hpp) on synthetic samples.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "timing/stdrel_criterion.hpp"

namespace kbv::timing {
namespace {

// Feeds `criterion` sample i = 0, 1, 2, … until it finishes, at most `cap` samples; returns how
// many it took (`cap` when it never finished: callers assert below it).
size_t samples_until_finished(StdrelCriterion& criterion, const std::function<Sample(size_t)>& sample, size_t cap) {
  size_t added = 0;
  while (!criterion.finished() && added < cap) criterion.add(sample(added++));
  return added;
}

Sample alone(double seconds) { return {.seconds = seconds, .measured_seconds = seconds}; }

TEST(StdrelCriterion, StableSamplesStopAtMinimumTimeAndCount) {
  StdrelCriterion criterion(StdrelParams{});
  // 1 ms samples: min time 0.5 s needs just over 500 of them.
  const size_t added = samples_until_finished(criterion, [](size_t) { return alone(1e-3); }, 1000);
  ASSERT_LT(added, 1000u);
  // "accumulated > min-time", strictly: 500 or 501 samples depending on the sum's rounding.
  EXPECT_GE(added, 500u);
  EXPECT_LE(added, 501u);
  EXPECT_DOUBLE_EQ(criterion.noise(), 0);
  EXPECT_EQ(criterion.reason(), StopReason::target_met);
}

TEST(StdrelCriterion, NeedsMinimumSamplesEvenForLongKernels) {
  StdrelCriterion criterion(StdrelParams{});
  for (int i = 0; i < 9; ++i) {
    criterion.add(alone(1.0));
    EXPECT_FALSE(criterion.finished());
  }
  criterion.add(alone(1.0));
  EXPECT_TRUE(criterion.finished());
}

TEST(StdrelCriterion, PersistentNoiseStopsOnAPlateau) {
  const StdrelParams params;
  StdrelCriterion criterion(params);
  // Alternating 1.0 ms / 1.2 ms: ~9 % noise forever, far above 0.5 %.
  const size_t added = samples_until_finished(criterion, [](size_t i) { return alone(i % 2 ? 1.2e-3 : 1.0e-3); }, 100000);
  ASSERT_LT(added, 100000u) << "never reached a plateau";
  EXPECT_GT(criterion.noise(), params.max_noise);
  EXPECT_EQ(added % StdrelCriterion::kPlateauCheckEvery, 0u);
  EXPECT_GT(criterion.measured_seconds(), params.min_measured_seconds);
  EXPECT_EQ(criterion.reason(), StopReason::noise_plateau);
}

TEST(StdrelCriterion, LowNoiseStopsBeforeAnyPlateau) {
  const StdrelParams params;
  StdrelCriterion criterion(params);
  const size_t added = samples_until_finished(criterion, [](size_t i) { return alone(i % 2 ? 1.001e-3 : 0.999e-3); }, 100000);  // 0.1 % noise
  EXPECT_LT(criterion.noise(), params.max_noise);
  EXPECT_LE(added, 502u);
  EXPECT_EQ(criterion.reason(), StopReason::target_met);
}

// The evaluator's reading: the minimum GPU time counts the whole interleaved measurement
// (candidate and baselines), the noise is the candidate's own.
TEST(StdrelCriterion, MeasuredTimeCountsTowardsTheMinimumNotTheNoise) {
  StdrelCriterion criterion(StdrelParams{});
  // A 1 ms candidate measured beside 4 ms of baselines.
  const size_t added = samples_until_finished(criterion, [](size_t) { return Sample{.seconds = 1e-3, .measured_seconds = 5e-3}; }, 1000);
  ASSERT_LT(added, 1000u);
  EXPECT_GE(added, 100u);
  EXPECT_LE(added, 101u);
  EXPECT_DOUBLE_EQ(criterion.noise(), 0);
}

// Grouped samples (the evaluator's input families): two families 4 % apart, each with 0.1 %
// noise. Pooled, the noise is ~2 % and only a plateau stops it; within families it is 0.1 %, and
// the rule stops at the minimum time, as for any quiet kernel.
TEST(StdrelCriterion, NoiseWithinGroupsIgnoresTheirDifference) {
  StdrelCriterion pooled(StdrelParams{}), grouped(StdrelParams{});
  const auto seconds = [](size_t i) { return (i % 2 ? 1.04e-3 : 1.0e-3) * ((i / 2) % 2 ? 1.001 : 0.999); };
  const size_t pooled_samples =
      samples_until_finished(pooled, [&](size_t i) { return Sample{.seconds = seconds(i), .measured_seconds = 5e-3}; }, 100000);
  const size_t grouped_samples = samples_until_finished(
      grouped,
      [&](size_t i) { return Sample{.seconds = seconds(i), .measured_seconds = 5e-3, .group = i % 2 ? "per_row_scale" : "uniform01"}; },
      100000);
  ASSERT_LT(pooled_samples, 100000u);
  ASSERT_LT(grouped_samples, 100000u);
  EXPECT_GT(pooled.noise(), 0.015);
  EXPECT_NEAR(grouped.noise(), 0.001, 0.0002);
  EXPECT_GE(grouped_samples, 100u);  // 0.5 s of 5 ms measurements (the sum's rounding decides 100 or 101)
  EXPECT_LE(grouped_samples, 101u);
  EXPECT_GT(pooled_samples, grouped_samples);
}

// The median's 95 % half-width, z · √(π/2) · noise / √n, and the stop it makes when asked for.
TEST(StdrelCriterion, MedianHalfWidthFollowsTheNoiseAndTheCount) {
  StdrelParams params;
  params.max_median_error = 0.005;
  StdrelCriterion criterion(params);
  EXPECT_EQ(criterion.median_half_width(), 0);
  for (int i = 0; i < 100; ++i) criterion.add(alone(i % 2 ? 1.01e-3 : 0.99e-3));  // ~1 % noise
  const double expected = 1.959964 * std::sqrt(std::acos(-1.0) / 2) * criterion.noise() / std::sqrt(100.0);
  EXPECT_NEAR(criterion.median_half_width(), expected, 1e-12);
  EXPECT_GT(criterion.noise(), params.max_noise);
  EXPECT_FALSE(criterion.finished()) << "0.1 s of GPU time: the minimum is not met";
  for (int i = 0; i < 401; ++i) criterion.add(alone(i % 2 ? 1.01e-3 : 0.99e-3));
  EXPECT_EQ(criterion.reason(), StopReason::median_precise);
  EXPECT_LT(criterion.median_half_width(), params.max_median_error);
}

// Wall time is the sampler's cap, not the criterion's: a sample that took long in wall time
// counts no more than its GPU time.
TEST(StdrelCriterion, WallTimeDoesNotCount) {
  StdrelCriterion criterion(StdrelParams{});
  for (int i = 0; i < 20; ++i) criterion.add({.seconds = 1e-3, .measured_seconds = 1e-3, .wall_seconds = 10});
  EXPECT_FALSE(criterion.finished());
}

}  // namespace
}  // namespace kbv::timing
