// tests/cuda/measure/axis_period_host_test.cu — axis_f32.cuh's column sum through the rows' period
// played on the host (no GPU): every thread's slice sum of the first kernel, combined as its block
// does, then every output of the second kernel, against a double sum per column; and which splits
// take the form.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ops/common/baseline/axis_f32.cuh"

namespace kbv::ops::baseline {
namespace {

// y [outer, inner] = the column sums of x [outer, extent, inner] as reduce_columns_by_period's two
// kernels compute them.
std::vector<float> play_period_sum(const std::vector<float4>& x4, const AxisSplit& split) {
  const int period = row_period(split.inner);
  const int64_t group_float4s = period * split.inner / 4, groups = split.extent / period;
  std::vector<float4> scratch(static_cast<size_t>(split.outer * group_float4s));
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t j = 0; j < group_float4s; ++j) {
      float4 total = period_slice_sum<4>(x4.data(), o, groups, group_float4s, j, 0);
      for (int slice = 1; slice < kPeriodSlices; ++slice) total = float4_added(total, period_slice_sum<4>(x4.data(), o, groups, group_float4s, j, slice));
      scratch[static_cast<size_t>(o * group_float4s + j)] = total;
    }
  std::vector<float> y(static_cast<size_t>(split.outer * split.inner));
  const auto* partial = reinterpret_cast<const float*>(scratch.data());
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t column = 0; column < split.inner; ++column)
      y[static_cast<size_t>(o * split.inner + column)] = period_column_total(partial, o, column, split.inner, period);
  return y;
}

TEST(ColumnSumByPeriod, EveryColumnIsItsSumWhateverTheRowsPeriod) {
  for (const AxisSplit split : {AxisSplit{2, 12, 4095}, AxisSplit{3, 20, 7}, AxisSplit{2, 16, 6}, AxisSplit{2, 24, 8}, AxisSplit{1, 4, 33},
                                AxisSplit{4, 72, 130}}) {
    ASSERT_TRUE(period_split(split)) << split_text(split);
    std::vector<float4> x4(static_cast<size_t>(split.outer * split.extent * split.inner / 4));
    auto* x = reinterpret_cast<float*>(x4.data());
    std::mt19937 generator(5);
    std::uniform_real_distribution<float> uniform(-1.f, 1.f);
    for (int64_t i = 0; i < split.outer * split.extent * split.inner; ++i) x[i] = uniform(generator);
    const std::vector<float> y = play_period_sum(x4, split);
    for (int64_t o = 0; o < split.outer; ++o)
      for (int64_t column = 0; column < split.inner; ++column) {
        double want = 0;
        for (int64_t a = 0; a < split.extent; ++a) want += x[(o * split.extent + a) * split.inner + column];
        ASSERT_NEAR(y[static_cast<size_t>(o * split.inner + column)], want, 1e-5 * split.extent) << split_text(split) << " o " << o << " column " << column;
      }
  }
}

TEST(ColumnSumByPeriod, ThePeriodIsTheRowsThatMakeWholeFloat4s) {
  EXPECT_EQ(row_period(4095), 4);
  EXPECT_EQ(row_period(4093), 4);
  EXPECT_EQ(row_period(4094), 2);
  EXPECT_EQ(row_period(4096), 1);
  EXPECT_FALSE(period_split(AxisSplit{2, 10, 7})) << "10 rows are not whole periods of 4";
  EXPECT_TRUE(period_split(AxisSplit{2, 10, 6}));
  EXPECT_FALSE(period_split(AxisSplit{8, 64, 1})) << "rows, not columns";
  EXPECT_EQ(period_scratch_bytes(AxisSplit{128, 4096, 4095}), size_t{128} * 4 * 4095 * 4);
  alignas(16) float buffer[8] = {};
  EXPECT_TRUE(period_columns(AxisSplit{1, 4, 5}, buffer));
  EXPECT_FALSE(period_columns(AxisSplit{1, 4, 5}, buffer + 1)) << "float4 loads need x 16-byte aligned";
}

}  // namespace
}  // namespace kbv::ops::baseline
