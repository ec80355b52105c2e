// tests/ops/reference_values_test.cpp — the fp64 reference of every op on small cases worked
// out by hand (or from closed forms), including padding, broadcasting and NaN propagation.
#include "op_test_support.hpp"

namespace kbv {
namespace {

using test::op_named;

// Tight enough to catch any real mistake; loose enough for libm's last-bit differences.
constexpr double kTolerance = 1e-12;

std::vector<double> reference(const std::string& op, const std::vector<Shape>& shapes,
                              const std::vector<std::vector<double>>& data, const Attrs& attrs = {}) {
  return test::run_op<double>(op_named(op), shapes, data, attrs);
}

void expect_values(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], kTolerance) << "element " << i;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<double> kImage3x3 = {1, 2, 3, 4, 5, 6, 7, 8, 9};

TEST(ReferenceValues, Conv2dTwoByTwo) {
  // Kernel [[1, 0], [0, 1]]: each output is x[r, s] + x[r+1, s+1].
  const std::vector<double> diagonal = {1, 0, 0, 1};
  expect_values(reference("conv2d", {{1, 1, 3, 3}, {1, 1, 2, 2}}, {kImage3x3, diagonal}),
                {6, 8, 12, 14});
  // With bias.
  expect_values(reference("conv2d", {{1, 1, 3, 3}, {1, 1, 2, 2}, {1}}, {kImage3x3, diagonal, {0.5}}),
                {6.5, 8.5, 12.5, 14.5});
  // Zero padding 1: a 4x4 output over the zero-bordered 5x5 image.
  expect_values(reference("conv2d", {{1, 1, 3, 3}, {1, 1, 2, 2}}, {kImage3x3, diagonal},
                          {{"padding", 1}}),
                {1, 2, 3, 0, 4, 6, 8, 3, 7, 12, 14, 6, 0, 7, 8, 9});
}

TEST(ReferenceValues, Conv2dStrideDilationGroups) {
  expect_values(reference("conv2d", {{1, 1, 3, 3}, {1, 1, 1, 1}}, {kImage3x3, {1}}, {{"stride", 2}}),
                {1, 3, 7, 9});
  expect_values(reference("conv2d", {{1, 1, 3, 3}, {1, 1, 2, 2}}, {kImage3x3, {1, 0, 0, 1}},
                          {{"dilation", 2}}),
                {10});  // x[0, 0] + x[2, 2]
  // Stride 2 with padding 1, kernel of ones: windows start at -1 and 1 in each dim.
  expect_values(reference("conv2d", {{1, 1, 3, 3}, {1, 1, 2, 2}}, {kImage3x3, {1, 1, 1, 1}},
                          {{"stride", 2}, {"padding", 1}}),
                {1, 2 + 3, 4 + 7, 5 + 6 + 8 + 9});
  // groups 2: each output channel sees only its own input channel.
  expect_values(reference("conv2d", {{1, 2, 1, 2}, {2, 1, 1, 1}}, {{1, 2, 5, 6}, {2, 3}},
                          {{"groups", 2}}),
                {2, 4, 15, 18});
  // groups 1 over two channels sums them: weight [1, 2, 1, 1] = (1, 10).
  expect_values(reference("conv2d", {{1, 2, 1, 2}, {1, 2, 1, 1}}, {{1, 2, 5, 6}, {1, 10}}),
                {51, 62});
}

}  // namespace
}  // namespace kbv
