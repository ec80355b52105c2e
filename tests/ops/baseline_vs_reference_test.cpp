// tests/ops/baseline_vs_reference_test.cpp — every op's fp32 baseline agrees with its fp64
// reference on random normal inputs, to within fp32 rounding.
#include <algorithm>
#include <set>

#include "op_test_support.hpp"
#include "ops/op_cases.hpp"

namespace kbv {
namespace {

using test::op_named;

struct BaselineCase {
  std::string label;  // gtest parameter name
  std::string op;
  std::vector<Shape> shapes;
  Attrs attrs;
};

// fp32 rounding (unit roundoff 6e-8) compounded over at most a few hundred terms per output
// stays far below this; a wrong index or a dropped term gives errors of order 1.
constexpr double kMaxRelativeL2 = 1e-5;

std::vector<BaselineCase> cases() {
  return {
      {"conv2d_plain", "conv2d", {{2, 4, 12, 12}, {8, 4, 3, 3}, {8}}, {}},
      {"conv2d_strided_grouped", "conv2d", {{1, 6, 11, 9}, {4, 3, 3, 2}},
       {{"stride", 2}, {"padding", 1}, {"dilation", 2}, {"groups", 2}}},
  };
}

void PrintTo(const BaselineCase& c, std::ostream* out) { *out << c.label; }

class BaselineVsReference : public ::testing::TestWithParam<BaselineCase> {};

TEST_P(BaselineVsReference, AgreeWithinFp32Rounding) {
  const BaselineCase& c = GetParam();
  const Op& op = op_named(c.op);
  std::mt19937_64 rng(0x6b6276);  // fixed seed: failures reproduce
  std::vector<std::vector<float>> inputs32;
  std::vector<std::vector<double>> inputs64;
  for (const Shape& shape : c.shapes) {
    inputs32.push_back(test::random_floats(shape, rng));
    inputs64.push_back(test::widen(inputs32.back()));
  }
  std::vector<float> baseline = test::run_op<float>(op, c.shapes, inputs32, c.attrs);
  std::vector<double> reference = test::run_op<double>(op, c.shapes, inputs64, c.attrs);
  ASSERT_EQ(baseline.size(), reference.size());
  for (size_t i = 0; i < reference.size(); ++i) {
    ASSERT_TRUE(std::isfinite(reference[i])) << "reference element " << i;
    ASSERT_TRUE(std::isfinite(baseline[i])) << "baseline element " << i;
  }
  EXPECT_LT(test::relative_l2(baseline, reference), kMaxRelativeL2);
  // The reference is not trivially zero, so the comparison above means something.
  EXPECT_GT(*std::max_element(reference.begin(), reference.end()), 0.0);
}

INSTANTIATE_TEST_SUITE_P(EveryOp, BaselineVsReference, ::testing::ValuesIn(cases()),
                         [](const auto& param_info) { return param_info.param.label; });

TEST(BaselineVsReference, CoversEveryRegisteredOpWithoutCases) {
  std::set<std::string> covered;
  for (const BaselineCase& c : cases()) covered.insert(c.op);
  for (const ops::NamedOpCases& named : ops::all_op_cases()) covered.insert(std::string(named.op));
  for (const Op* op : all_ops()) EXPECT_TRUE(covered.count(std::string(op->name()))) << op->name();
}

TEST(BaselineVsReference, RejectsAnOutputShapeThatDisagrees) {
  const Op& op = op_named("matmul");
  std::vector<double> a(6, 1.0), b(6, 1.0), c(9);
  Attrs attrs;
  OpArgs<double> args;
  args.inputs = {a.data(), b.data()};
  args.input_shapes = {{2, 3}, {3, 2}};
  args.output = c.data();
  args.output_shape = {3, 3};  // should be [2, 2]
  args.attrs = &attrs;
  EXPECT_THROW(op.reference_f64(args), OpError);
}

}  // namespace
}  // namespace kbv
