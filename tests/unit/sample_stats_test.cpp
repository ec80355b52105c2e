// sample_stats_test.cpp — median and IQR as reported in every timing figure.
#include <gtest/gtest.h>

#include "eval/sample_stats.hpp"

TEST(SampleStats, MedianIqrMinMax) {
  const auto stats = kbv::eval::summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(stats.median_s, 3);
  EXPECT_DOUBLE_EQ(stats.iqr_s, 2);  // quartiles 2 and 4
  EXPECT_DOUBLE_EQ(stats.min_s, 1);
  EXPECT_DOUBLE_EQ(stats.max_s, 5);
  EXPECT_EQ(stats.samples, 5);
  EXPECT_NEAR(kbv::eval::relative_noise(stats), 2.0 / 3.0, 1e-12);
}

TEST(SampleStats, EmptyIsZero) {
  const auto stats = kbv::eval::summarize({});
  EXPECT_EQ(stats.samples, 0);
  EXPECT_DOUBLE_EQ(kbv::eval::relative_noise(stats), 0);
}
