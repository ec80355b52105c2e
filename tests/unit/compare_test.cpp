// compare_test.cpp — the tolerance rule, poison detection and non-finite handling.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "verify/compare.hpp"

namespace {

const kbv::Tolerance kTolerance{1e-4, 1e-4, 1e-5};

TEST(Compare, ExactOutputPasses) {
  const std::vector<double> ref = {1, -2, 3, 0.5};
  const std::vector<float> out = {1, -2, 3, 0.5f};
  const auto result = kbv::compare_output(out.data(), ref.data(), 4, 0, kTolerance);
  EXPECT_TRUE(result.passed) << result.summary();
  EXPECT_EQ(result.violations, 0);
}

TEST(Compare, OneElementOffFailsAndIsLocated) {
  const std::vector<double> ref = {1, 1, 1, 1};
  const std::vector<float> out = {1, 1, 1.01f, 1};
  const auto result = kbv::compare_output(out.data(), ref.data(), 4, 0, kTolerance);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.violations, 1);
  EXPECT_EQ(result.first_violation_index, 2);
}

// Tensor-core tolerance with an outlier allowance of 2 elements in kOutlierTestSize; the
// size keeps rel-L2 far below 2e-3 so only the outlier rule decides.
const kbv::Tolerance kWithOutliers{1e-2, 1e-2, 2e-3, 1e-5};
constexpr int64_t kOutlierTestSize = 200000;

std::vector<double> ones(size_t n) { return std::vector<double>(n, 1.0); }

TEST(CompareOutliers, AllowedOutliersJustPastTheBoundPass) {
  const auto ref = ones(kOutlierTestSize);
  std::vector<float> out(ref.begin(), ref.end());
  out[7] = 1.03f;  // 1.5x the bound 0.02
  out[900] = 0.97f;
  const auto result = kbv::compare_output(out.data(), ref.data(), kOutlierTestSize, 0, kWithOutliers);
  EXPECT_EQ(result.violations, 2);
  EXPECT_EQ(result.outliers_allowed, 2);
  EXPECT_TRUE(result.passed) << result.summary();
}

// gemm_bias_gelu's case: 1e-7 of 8.4·10⁶ elements is 0.84, rounded up to one outlier (a
// TF32 rounding tail where products cancel); a second one still fails.
TEST(CompareOutliers, ASmallTensorCoreOutputMayHoldOneOutlier) {
  const kbv::Tolerance tensor_core{1e-2, 1e-2, 2e-3, 1e-7};
  const auto ref = ones(kOutlierTestSize);
  std::vector<float> out(ref.begin(), ref.end());
  out[7] = 1.05f;  // 2.5x the bound 0.02
  const auto one = kbv::compare_output(out.data(), ref.data(), kOutlierTestSize, 0, tensor_core);
  EXPECT_EQ(one.outliers_allowed, 1);
  EXPECT_TRUE(one.passed) << one.summary();
  out[900] = 1.05f;
  EXPECT_FALSE(kbv::compare_output(out.data(), ref.data(), kOutlierTestSize, 0, tensor_core).passed);
}

TEST(CompareOutliers, OneMoreThanAllowedFails) {
  const auto ref = ones(kOutlierTestSize);
  std::vector<float> out(ref.begin(), ref.end());
  for (int i : {7, 900, 1500}) out[static_cast<size_t>(i)] = 1.03f;
  EXPECT_FALSE(kbv::compare_output(out.data(), ref.data(), kOutlierTestSize, 0, kWithOutliers).passed);
}

TEST(CompareOutliers, AnOutlierFarPastTheBoundFails) {
  const auto ref = ones(kOutlierTestSize);
  std::vector<float> out(ref.begin(), ref.end());
  out[7] = 1.25f;  // 12.5x the bound: a wrong value, not a rounding tail
  const auto result = kbv::compare_output(out.data(), ref.data(), kOutlierTestSize, 0, kWithOutliers);
  EXPECT_FALSE(result.passed) << result.summary();
}

TEST(CompareOutliers, NaNIsNeverAnOutlier) {
  const auto ref = ones(kOutlierTestSize);
  std::vector<float> out(ref.begin(), ref.end());
  out[7] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(kbv::compare_output(out.data(), ref.data(), kOutlierTestSize, 0, kWithOutliers).passed);
}

TEST(CompareOutliers, ExactToleranceAllowsNone) {
  const auto ref = ones(100000000 / 10000);
  std::vector<float> out(ref.begin(), ref.end());
  out[3] = 1.0002f;
  EXPECT_FALSE(kbv::compare_output(out.data(), ref.data(), static_cast<int64_t>(out.size()), 0, kTolerance).passed);
}

TEST(Compare, AbsoluteToleranceScalesWithTheReferenceRms) {
  // Same relative error at 1e-6 and at 1e4 magnitude: both pass or both fail.
  for (double scale : {1e-6, 1.0, 1e4}) {
    std::vector<double> ref(100);
    std::vector<float> out(100);
    for (int i = 0; i < 100; ++i) {
      ref[i] = scale * std::sin(i + 1.0);
      out[i] = static_cast<float>(ref[i] * (1 + 2e-7));
    }
    EXPECT_TRUE(kbv::compare_output(out.data(), ref.data(), 100, 0, kTolerance).passed) << scale;
  }
}

TEST(Compare, PoisonedElementsCountAsUnwritten) {
  std::vector<double> ref = {1, 2, 3};
  std::vector<float> out(3);
  kbv::poison(out.data(), 3);
  out[0] = 1;
  const auto result = kbv::compare_output(out.data(), ref.data(), 3, 0, kTolerance);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.unwritten, 2);
}

TEST(Compare, NanWhereReferenceIsFiniteFails) {
  const std::vector<double> ref = {1, 2};
  const std::vector<float> out = {1, std::numeric_limits<float>::quiet_NaN()};
  const auto result = kbv::compare_output(out.data(), ref.data(), 2, 0, kTolerance);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.nonfinite_where_ref_finite, 1);
}

TEST(Compare, MatchingInfinitiesAgree) {
  const std::vector<double> ref = {-std::numeric_limits<double>::infinity(), 2};
  const std::vector<float> out = {-std::numeric_limits<float>::infinity(), 2};
  EXPECT_TRUE(kbv::compare_output(out.data(), ref.data(), 2, 0, kTolerance).passed);
}

TEST(Compare, RelativeL2CatchesSmallWidespreadErrors) {
  // Every element within allclose (rtol 5e-3) but the L2 error is 3e-3 > rel_l2 2e-3: a bf16-like result.
  const kbv::Tolerance tensor_core{5e-3, 5e-3, 2e-3};
  std::vector<double> ref(1000, 1.0);
  std::vector<float> out(1000, 1.003f);
  const auto result = kbv::compare_output(out.data(), ref.data(), 1000, 0, tensor_core);
  EXPECT_EQ(result.violations, 0);
  EXPECT_FALSE(result.passed);
}

// Local RMS rows (verify/compare.hpp, kMinLocalRmsRow). Two rows of 64, half their elements at
// ±1000 (±1 in the second row), half at ±10 (±0.01): the whole output's RMS is 500, the large
// row's 707, the small row's 0.707.
struct TwoScaleRows {
  std::vector<double> ref;
  std::vector<float> out;
  TwoScaleRows() {
    for (int row = 0; row < 2; ++row)
      for (int j = 0; j < 64; ++j) ref.push_back((row == 0 ? 1000.0 : 1.0) * (j % 2 ? 1.0 : -1.0) * (j < 32 ? 1.0 : 0.01));
    out.assign(ref.begin(), ref.end());
  }
};
const kbv::Tolerance kRowTolerance{1e-3, 1e-3, 1e-2};

TEST(CompareRows, ALargeRowIsJudgedByItsOwnRms) {
  TwoScaleRows rows;
  rows.out[40] = static_cast<float>(rows.ref[40] + 0.6);  // |ref| 10: allowed 0.510 by the whole RMS, 0.717 by the row's
  EXPECT_FALSE(kbv::compare_output(rows.out.data(), rows.ref.data(), 128, 0, kRowTolerance).passed);
  const auto by_row = kbv::compare_output(rows.out.data(), rows.ref.data(), 128, 64, kRowTolerance);
  EXPECT_TRUE(by_row.passed) << by_row.summary();
}

TEST(CompareRows, ASmallRowIsNeverJudgedMoreLooselyThanByTheWholeRms) {
  TwoScaleRows rows;
  rows.out[100] = static_cast<float>(rows.ref[100] + 0.55);  // the small row: allowed 0.500 either way
  for (int64_t row_length : {int64_t{0}, int64_t{64}}) {
    const auto result = kbv::compare_output(rows.out.data(), rows.ref.data(), 128, row_length, kRowTolerance);
    EXPECT_FALSE(result.passed) << row_length;
    EXPECT_EQ(result.violations, 1) << row_length;
  }
  rows.out[100] = static_cast<float>(rows.ref[100] + 0.45);  // and passes either way below it
  for (int64_t row_length : {int64_t{0}, int64_t{64}})
    EXPECT_TRUE(kbv::compare_output(rows.out.data(), rows.ref.data(), 128, row_length, kRowTolerance).passed) << row_length;
}

TEST(CompareRows, RowLengthFollowsTheInnermostAxis) {
  EXPECT_EQ(kbv::local_rms_row_length({128, 4096}), 4096);
  EXPECT_EQ(kbv::local_rms_row_length({2, 3, 32}), 32);
  EXPECT_EQ(kbv::local_rms_row_length({4096}), 0);       // one row: the whole RMS is the row's
  EXPECT_EQ(kbv::local_rms_row_length({4096, 31}), 0);   // rows too short for a stable RMS
  EXPECT_EQ(kbv::local_rms_row_length({}), 0);           // a scalar
  EXPECT_EQ(kbv::local_rms_row_length({0, 64}), 0);      // no elements
}

TEST(CompareRows, ARowLengthThatDoesNotDivideIsRefused) {
  TwoScaleRows rows;
  EXPECT_THROW((void)kbv::compare_output(rows.out.data(), rows.ref.data(), 128, 48, kRowTolerance), std::invalid_argument);
  EXPECT_THROW((void)kbv::compare_output(rows.out.data(), rows.ref.data(), 128, -1, kRowTolerance), std::invalid_argument);
}

}  // namespace
