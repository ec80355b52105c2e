// tests/unit/stop_rule_test.cpp — sample statistics and the NVBench stdrel stop rule
// (core/timing), on synthetic samples.
#include <gtest/gtest.h>

#include <functional>

#include "timing/stop_rule.hpp"

namespace kbv::timing {
namespace {

// Feeds `criterion` sample i = 0, 1, 2, … through add_sample until it finishes, at most `cap`
// samples; returns how many it took (`cap` when it never finished: callers assert below it).
size_t samples_until_finished(NoiseCriterion& criterion, const std::function<void(NoiseCriterion&, size_t)>& add_sample, size_t cap) {
  size_t added = 0;
  while (!criterion.finished() && added < cap) add_sample(criterion, added++);
  return added;
}

TEST(SampleStats, QuantilesInterpolateBetweenOrderStatistics) {
  const SampleSummary s = summarize({4, 1, 3, 2, 5});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.iqr, 2);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_NEAR(s.stdev, 1.5811388300841898, 1e-12);  // sample stdev of 1..5
  const SampleSummary even = summarize({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.q1, 1.75);  // numpy.percentile([1,2,3,4], 25)
  EXPECT_EQ(summarize({}).count, 0u);
}

TEST(StopRule, StableSamplesStopAtMinimumTimeAndCount) {
  StopRule rule;
  NoiseCriterion criterion(rule);
  // 1 ms samples: min time 0.5 s needs just over 500 of them.
  const size_t added = samples_until_finished(criterion, [](NoiseCriterion& c, size_t) { c.add(1e-3); }, 1000);
  ASSERT_LT(added, 1000u);
  // "accumulated > min-time", strictly: 500 or 501 samples depending on the sum's rounding.
  EXPECT_GE(added, 500u);
  EXPECT_LE(added, 501u);
  EXPECT_DOUBLE_EQ(criterion.noise(), 0);
}

TEST(StopRule, NeedsMinimumSamplesEvenForLongKernels) {
  StopRule rule;
  NoiseCriterion criterion(rule);
  for (int i = 0; i < 9; ++i) {
    criterion.add(1.0);
    EXPECT_FALSE(criterion.finished());
  }
  criterion.add(1.0);
  EXPECT_TRUE(criterion.finished());
}

TEST(StopRule, PersistentNoiseStopsOnAPlateau) {
  StopRule rule;
  NoiseCriterion criterion(rule);
  // Alternating 1.0 ms / 1.2 ms: ~9 % noise forever, far above 0.5 %.
  const size_t added = samples_until_finished(criterion, [](NoiseCriterion& c, size_t i) { c.add(i % 2 ? 1.2e-3 : 1.0e-3); }, 100000);
  ASSERT_LT(added, 100000u) << "never reached a plateau";
  EXPECT_GT(criterion.noise(), rule.max_noise);
  EXPECT_EQ(added % NoiseCriterion::kPlateauCheckEvery, 0u);
  EXPECT_GT(criterion.total_seconds(), rule.min_gpu_seconds);
}

TEST(StopRule, LowNoiseStopsBeforeAnyPlateau) {
  StopRule rule;
  NoiseCriterion criterion(rule);
  const size_t added =
      samples_until_finished(criterion, [](NoiseCriterion& c, size_t i) { c.add(i % 2 ? 1.001e-3 : 0.999e-3); }, 100000);  // 0.1 % noise
  EXPECT_LT(criterion.noise(), rule.max_noise);
  EXPECT_LE(added, 502u);
}

// The evaluator's reading: the minimum GPU time counts the whole interleaved measurement
// (candidate and baselines), the noise is the candidate's own.
TEST(StopRule, MeasuredTimeCountsTowardsTheMinimumNotTheNoise) {
  StopRule rule;
  NoiseCriterion criterion(rule);
  // A 1 ms candidate measured beside 4 ms of baselines.
  const size_t added = samples_until_finished(criterion, [](NoiseCriterion& c, size_t) { c.add(1e-3, 5e-3); }, 1000);
  ASSERT_LT(added, 1000u);
  EXPECT_GE(added, 100u);
  EXPECT_LE(added, 101u);
  EXPECT_DOUBLE_EQ(criterion.noise(), 0);
}

// Grouped samples (the evaluator's input families): two families 4 % apart, each with 0.1 %
// noise. Pooled, the noise is ~2 % and only a plateau stops it; within families it is 0.1 %, and
// the rule stops at the minimum time, as for any quiet kernel.
TEST(StopRule, NoiseWithinGroupsIgnoresTheirDifference) {
  StopRule rule;
  NoiseCriterion pooled(rule), grouped(rule);
  const auto sample = [](size_t i) { return (i % 2 ? 1.04e-3 : 1.0e-3) * ((i / 2) % 2 ? 1.001 : 0.999); };
  const size_t pooled_samples = samples_until_finished(pooled, [&](NoiseCriterion& c, size_t i) { c.add(sample(i), 5e-3); }, 100000);
  const size_t grouped_samples = samples_until_finished(
      grouped, [&](NoiseCriterion& c, size_t i) { c.add(sample(i), 5e-3, i % 2 ? "per_row_scale" : "uniform01"); }, 100000);
  ASSERT_LT(pooled_samples, 100000u);
  ASSERT_LT(grouped_samples, 100000u);
  EXPECT_GT(pooled.noise(), 0.015);
  EXPECT_NEAR(grouped.noise(), 0.001, 0.0002);
  EXPECT_GE(grouped_samples, 100u);  // 0.5 s of 5 ms measurements (the sum's rounding decides 100 or 101)
  EXPECT_LE(grouped_samples, 101u);
  EXPECT_GT(pooled_samples, grouped_samples);
}

}  // namespace
}  // namespace kbv::timing
