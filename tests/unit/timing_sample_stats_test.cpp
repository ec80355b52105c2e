// tests/unit/timing_sample_stats_test.cpp — core/timing's order statistics and relative
// standard deviation within groups, on hand-computed values.
#include <gtest/gtest.h>

#include <cmath>

#include "timing/sample_stats.hpp"

namespace kbv::timing {
namespace {

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

TEST(GroupedRelativeStdev, UngroupedIsStdevOverMean) {
  GroupedRelativeStdev noise;
  noise.add(1);
  EXPECT_FALSE(noise.defined());
  EXPECT_DOUBLE_EQ(noise.value(), 0);
  noise.add(3);
  EXPECT_TRUE(noise.defined());
  EXPECT_NEAR(noise.value(), std::sqrt(2.0) / 2, 1e-12);  // stdev √2, mean 2
}

TEST(GroupedRelativeStdev, GroupedPoolsEachGroupsRelativeVariance) {
  GroupedRelativeStdev noise;
  noise.add(1, "a");
  noise.add(3, "b");
  EXPECT_FALSE(noise.defined()) << "no group has two values yet";
  noise.add(3, "a");  // a: {1, 3}: relative stdev √2 / 2
  noise.add(30, "b");
  noise.add(30, "b");  // b: {3, 30, 30}: stdev 15.588…, mean 21
  const double a = std::sqrt(2.0) / 2, b = std::sqrt(243.0) / 21;
  EXPECT_NEAR(noise.value(), std::sqrt((1 * a * a + 2 * b * b) / 3), 1e-12);
}

}  // namespace
}  // namespace kbv::timing
