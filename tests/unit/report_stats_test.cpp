// tests/unit/report_stats_test.cpp — median, IQR and IQR / median as reported in every timing figure
// (eval/report_stats.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval/report_stats.hpp"

TEST(ReportStats, MedianIqrMinMax) {
  const auto stats = kbv::eval::summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(stats.median_s, 3);
  EXPECT_DOUBLE_EQ(stats.iqr_s, 2);  // quartiles 2 and 4
  EXPECT_DOUBLE_EQ(stats.min_s, 1);
  EXPECT_DOUBLE_EQ(stats.max_s, 5);
  EXPECT_EQ(stats.samples, 5);
  EXPECT_NEAR(kbv::eval::iqr_over_median(stats), 2.0 / 3.0, 1e-12);
}

// Two groups whose values differ by 10 % but each barely moves: pooled, the noise is the gap
// between them; within the groups, it is theirs.
TEST(ReportStats, NoiseWithinGroupsSeparatesTheirDifference) {
  std::vector<double> samples;
  std::vector<std::string> groups;
  for (int i = 0; i < 40; ++i) {
    const bool slow = i % 2 == 1;
    samples.push_back((slow ? 1.10 : 1.00) * (1 + 0.001 * (i % 5)));
    groups.push_back(slow ? "per_row_scale" : "uniform01");
  }
  const auto by_group = kbv::eval::summarize_by_group(samples, groups);
  EXPECT_GT(kbv::eval::iqr_over_median(kbv::eval::summarize(samples)), 0.05);
  EXPECT_LT(kbv::eval::iqr_over_median_within_groups(samples, groups, by_group), 0.005);
  ASSERT_EQ(by_group.size(), 2u);
  EXPECT_EQ(by_group.at("uniform01").samples, 20);
  EXPECT_NEAR(by_group.at("per_row_scale").median_s, 1.10 * 1.002, 1e-12);
  EXPECT_THROW(kbv::eval::summarize_by_group(samples, {"one"}), std::invalid_argument);
}

TEST(ReportStats, EmptyIsZero) {
  const auto stats = kbv::eval::summarize({});
  EXPECT_EQ(stats.samples, 0);
  EXPECT_DOUBLE_EQ(kbv::eval::iqr_over_median(stats), 0);
}
