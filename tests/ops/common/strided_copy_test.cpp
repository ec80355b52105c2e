// tests/ops/common/strided_copy_test.cpp — the copy plans of layout ops
// (daemon/ops/common/strided_copy.cpp): boxes merged to the fewest dims, the plans that are one
// in-order copy (the CUDA baseline's memcpy), negative strides, a 64-input cat's offsets, and the
// host loop at rank 0 and with a negative stride.
#include "ops/common/strided_copy.hpp"

#include <gtest/gtest.h>

#include "ops/cat/cat.hpp"
#include "ops/flip/flip.hpp"
#include "ops/select/select.hpp"
#include "ops/slice/slice.hpp"
#include "ops/transpose/transpose.hpp"

namespace kbv::ops::layout {
namespace {

TEST(StridedCopy, CatAlongChannelsMergesEachInputIntoTwoDims) {
  const CopyPlan plan = cat::plan({{2, 3, 4, 5}, {2, 4, 4, 5}}, {{"axis", 1}});
  EXPECT_EQ(plan.output, (Shape{2, 7, 4, 5}));
  ASSERT_EQ(plan.copies.size(), 2u);
  const StridedCopy& second = plan.copies[1];
  EXPECT_EQ(second.input, 1);
  ASSERT_EQ(second.rank, 2);
  EXPECT_EQ(second.dims[0], 2);
  EXPECT_EQ(second.dims[1], 4 * 4 * 5);
  EXPECT_EQ(second.in_strides[0], 4 * 4 * 5);
  EXPECT_EQ(second.out_strides[0], 7 * 4 * 5);
  EXPECT_EQ(second.in_strides[1], 1);
  EXPECT_EQ(second.out_strides[1], 1);
  EXPECT_EQ(second.out_offset, 3 * 4 * 5);  // after input 0's three channels
  EXPECT_FALSE(is_whole_copy(plan));
}

TEST(StridedCopy, SixtyFourInputsEachLandAtTheirOffset) {
  const std::vector<Shape> inputs(cat::kMaxCatInputs, Shape{2, 3});
  const CopyPlan plan = cat::plan(inputs, {{"axis", 0}});
  EXPECT_EQ(plan.output, (Shape{128, 3}));
  ASSERT_EQ(plan.copies.size(), 64u);
  for (size_t k = 0; k < plan.copies.size(); ++k) {
    EXPECT_EQ(plan.copies[k].input, static_cast<int32_t>(k));
    EXPECT_EQ(plan.copies[k].rank, 1);
    EXPECT_EQ(plan.copies[k].out_offset, static_cast<int64_t>(6 * k));
  }
}

TEST(StridedCopy, TransposeKeepsThreeDimsAndAUnitAxisMakesItOneRun) {
  const CopyPlan last_two = transpose::plan({{4, 5, 6}}, {{"axis0", 1}, {"axis1", 2}});
  ASSERT_EQ(last_two.copies.size(), 1u);
  EXPECT_EQ(last_two.copies[0].rank, 3);
  EXPECT_FALSE(is_whole_copy(last_two));
  // Swapping an axis of extent 1 moves no element: one in-order run.
  const CopyPlan unit = transpose::plan({{1, 5, 6}}, {{"axis0", 0}, {"axis1", 1}});
  EXPECT_EQ(unit.output, (Shape{5, 1, 6}));
  EXPECT_TRUE(is_whole_copy(unit));
}

TEST(StridedCopy, SelectAndSliceReadFromAnOffset) {
  const CopyPlan first = select::plan({{3, 4}}, {{"axis", 0}, {"index", 0}});
  EXPECT_TRUE(is_whole_copy(first));  // the first row: the first 4 elements in order
  const CopyPlan last = select::plan({{3, 4}}, {{"axis", 0}, {"index", -1}});
  EXPECT_FALSE(is_whole_copy(last));
  EXPECT_EQ(last.copies[0].in_offset, 8);
  const CopyPlan stepped = slice::plan({{10, 3}}, {{"start", 1}, {"end", -1}, {"step", 4}});
  EXPECT_EQ(stepped.output, (Shape{2, 3}));  // rows 1 and 5 of rows 0..8
  ASSERT_EQ(stepped.copies[0].rank, 2);
  EXPECT_EQ(stepped.copies[0].in_strides[0], 12);
  EXPECT_EQ(stepped.copies[0].in_offset, 3);
}

TEST(StridedCopy, FlipRunsTheAxisBackwardsOnTheHost) {
  const CopyPlan plan = flip::plan({{2, 3}}, {{"axis", 1}});
  ASSERT_EQ(plan.copies.size(), 1u);
  EXPECT_EQ(plan.copies[0].in_strides[1], -1);
  EXPECT_EQ(plan.copies[0].in_offset, 2);
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  std::vector<double> y(6, 0);
  copy_on_host(plan.copies[0], x.data(), y.data());
  EXPECT_EQ(y, (std::vector<double>{3, 2, 1, 6, 5, 4}));
}

TEST(StridedCopy, RankZeroCopiesOneElement) {
  const CopyPlan plan = select::plan({{5}}, {{"index", 3}});
  EXPECT_EQ(plan.output, Shape{});
  ASSERT_EQ(plan.copies[0].rank, 0);
  EXPECT_EQ(element_count(plan.copies[0]), 1);
  const std::vector<float> x = {1, 2, 3, 4, 5};
  float y = 0;
  copy_on_host(plan.copies[0], x.data(), &y);
  EXPECT_EQ(y, 4.f);
}

TEST(StridedCopy, ABoxAboveRankEightIsRefused) {
  const Shape nine(9, 2);
  EXPECT_THROW(make_copy(0, nine, contiguous_strides(nine), 0, contiguous_strides(nine), 0),
               OpError);
}

}  // namespace
}  // namespace kbv::ops::layout
