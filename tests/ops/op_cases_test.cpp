// tests/ops/op_cases_test.cpp — every op through its own cases (ops/<name>/cases.cpp), as
// PyTorch's OpInfo records drive test_ops.py: shape inference and rejections, cost, hand-worked
// values, the host fp32 baseline against the fp64 reference on random inputs, and the checks
// every op must pass whatever its cases say (input counts, empty dims, explicit defaults, an
// output shape that disagrees). Tests are named after the op (and the sample).
#include <algorithm>
#include <set>

#include "op_test_support.hpp"
#include "ops/op_cases.hpp"

namespace kbv {
namespace {

using ops::NamedOpCases;
using ops::OpCases;
using ops::Sample;

// Tight enough to catch any real mistake; loose enough for libm's last-bit differences.
constexpr double kValueTolerance = 1e-12;
// fp32 rounding (unit roundoff 6e-8) compounded over at most a few hundred terms per output
// stays far below this; a wrong index or a dropped term gives errors of order 1.
constexpr double kMaxRelativeL2 = 1e-5;

const OpCases& cases_of(std::string_view op) {
  for (const NamedOpCases& named : ops::all_op_cases())
    if (named.op == op) return named.cases;
  throw std::runtime_error("no cases for op " + std::string(op));
}

std::vector<std::string> case_ops() {
  std::vector<std::string> names;
  for (const NamedOpCases& named : ops::all_op_cases()) names.emplace_back(named.op);
  return names;
}

Attrs with_defaults(const Op& op, const Attrs& overrides) {
  Attrs attrs = op.attribute_defaults();
  for (const auto& [name, value] : overrides) attrs[name] = value;
  return attrs;
}

// Expects infer_shape to throw OpError starting with "<op>:" and containing `expected_text`.
void expect_rejected(const Op& op, const std::vector<Shape>& shapes, const Attrs& attrs,
                     const std::string& expected_text) {
  try {
    const Shape out = op.infer_shape(shapes, attrs);
    ADD_FAILURE() << op.name() << " accepted invalid input, inferring " << to_string(out);
  } catch (const OpError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(expected_text), std::string::npos)
        << op.name() << " message: " << message << "\nexpected it to contain: " << expected_text;
    EXPECT_EQ(message.rfind(std::string(op.name()) + ":", 0), 0u)
        << "message should start with the op name: " << message;
  }
}

std::string shapes_text(const std::vector<Shape>& shapes) {
  std::string text;
  for (const Shape& shape : shapes) text += (text.empty() ? "" : ", ") + to_string(shape);
  return text;
}

class OpCasesTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Op& op() const { return test::op_named(GetParam()); }
  const OpCases& cases() const { return cases_of(GetParam()); }
};

TEST_P(OpCasesTest, HasSamplesValuesAndCosts) {
  EXPECT_FALSE(cases().samples.empty()) << "samples drive the fp32, device and CUDA baseline checks";
  EXPECT_FALSE(cases().values.empty()) << "give at least one hand-worked value";
  EXPECT_FALSE(cases().costs.empty()) << "give at least one flops() count";
  std::set<std::string> labels;
  for (const Sample& sample : cases().samples) {
    EXPECT_TRUE(labels.insert(sample.label).second) << "duplicate sample label " << sample.label;
    EXPECT_FALSE(sample.label.empty());
    EXPECT_TRUE(std::all_of(sample.label.begin(), sample.label.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    })) << "sample label " << sample.label << " must be [a-z0-9_]: it names tests";
  }
}

TEST_P(OpCasesTest, InfersShapes) {
  for (const ops::ShapeCase& c : cases().shapes)
    EXPECT_EQ(op().infer_shape(c.inputs, c.attrs), c.output) << shapes_text(c.inputs);
}

TEST_P(OpCasesTest, RejectsInvalidShapesAndAttributes) {
  for (const ops::RejectCase& c : cases().rejects) {
    SCOPED_TRACE(shapes_text(c.inputs));
    expect_rejected(op(), c.inputs, c.attrs, c.message);
  }
}

// Whatever the op: one input too few or too many, and a dimension of 0, are refused.
TEST_P(OpCasesTest, RejectsWrongInputCountsAndEmptyDims) {
  const std::vector<Shape>& inputs = cases().samples.at(0).inputs;
  const Attrs& attrs = cases().samples.at(0).attrs;
  if (op().min_inputs() > 0) {
    const std::vector<Shape> too_few(inputs.begin(),
                                     inputs.begin() + static_cast<std::ptrdiff_t>(op().min_inputs() - 1));
    expect_rejected(op(), too_few, attrs, "inputs; expected");
  }
  std::vector<Shape> too_many(op().max_inputs() + 1, inputs.at(0));
  std::copy(inputs.begin(), inputs.end(), too_many.begin());
  expect_rejected(op(), too_many, attrs, "inputs; expected");
  std::vector<Shape> empty = inputs;
  empty[0][0] = 0;
  expect_rejected(op(), empty, attrs, "at least 1");
}

TEST_P(OpCasesTest, CountsFlops) {
  for (const ops::CostCase& c : cases().costs) {
    const Shape out = op().infer_shape(c.inputs, c.attrs);
    EXPECT_EQ(op().flops(c.inputs, out, c.attrs), c.flops) << shapes_text(c.inputs);
  }
}

TEST_P(OpCasesTest, ReferenceGivesHandWorkedValues) {
  for (const ops::ValueCase& c : cases().values) {
    SCOPED_TRACE(c.what);
    const std::vector<double> out = test::run_op<double>(op(), c.inputs, c.data, c.attrs);
    ASSERT_EQ(out.size(), c.expected.size());
    for (size_t i = 0; i < out.size(); ++i) {
      if (std::isnan(c.expected[i]))
        EXPECT_TRUE(std::isnan(out[i])) << "element " << i << " is " << out[i] << ", expected NaN";
      else
        EXPECT_NEAR(out[i], c.expected[i], kValueTolerance) << "element " << i;
    }
  }
}

// Attributes left out take the defaults: the same shape and the same values, bit for bit.
TEST_P(OpCasesTest, ExplicitDefaultsMeanTheSameAsNone) {
  std::mt19937_64 rng(0x64656661);
  for (const Sample& sample : cases().samples) {
    SCOPED_TRACE(sample.label);
    const Attrs complete = with_defaults(op(), sample.attrs);
    ASSERT_EQ(op().infer_shape(sample.inputs, complete), op().infer_shape(sample.inputs, sample.attrs));
    const InputDomain domain = op().input_domain(complete);
    std::vector<std::vector<double>> data;
    for (size_t i = 0; i < sample.inputs.size(); ++i) {
      data.push_back(test::widen(test::random_floats(sample.inputs[i], rng)));
      for (double& value : data.back()) value = kbv::inputs::within_domain(domain, value);  // log: |x|
      ops::make_class_indices(sample, i, data.back());
    }
    EXPECT_EQ(test::run_op<double>(op(), sample.inputs, data, complete),
              test::run_op<double>(op(), sample.inputs, data, sample.attrs));
  }
}

// Runs `op` in T on all-ones inputs of the sample's shapes into `output`, declared `output_shape`.
template <class T>
void run_into(const Op& op, const Sample& sample, const Shape& output_shape, std::vector<T>& output) {
  std::vector<std::vector<T>> data;
  for (const Shape& shape : sample.inputs) data.emplace_back(static_cast<size_t>(numel(shape)), T(1));
  OpArgs<T> args;
  args.input_shapes = sample.inputs;
  for (const auto& tensor : data) args.inputs.push_back(tensor.data());
  args.output_shape = output_shape;
  args.output = output.data();
  args.attrs = &sample.attrs;
  if constexpr (std::is_same_v<T, double>)
    op.reference_f64(args);
  else
    op.baseline_f32(args);
}

// An output shape other than the inferred one is refused before anything is written.
TEST_P(OpCasesTest, RefusesAnOutputShapeThatDisagrees) {
  const Sample& sample = cases().samples.at(0);
  Shape wrong = op().infer_shape(sample.inputs, sample.attrs);
  wrong.push_back(2);
  std::vector<double> output64(static_cast<size_t>(numel(wrong)), 0.0);
  std::vector<float> output32(output64.size(), 0.f);
  EXPECT_THROW(run_into(op(), sample, wrong, output64), OpError);
  EXPECT_THROW(run_into(op(), sample, wrong, output32), OpError);
  EXPECT_TRUE(std::all_of(output64.begin(), output64.end(), [](double v) { return v == 0.0; }));
  EXPECT_TRUE(std::all_of(output32.begin(), output32.end(), [](float v) { return v == 0.f; }));
}

INSTANTIATE_TEST_SUITE_P(EveryOp, OpCasesTest, ::testing::ValuesIn(case_ops()),
                         [](const auto& param_info) { return param_info.param; });

struct SampleParam {
  std::string op;
  Sample sample;
};

void PrintTo(const SampleParam& param, std::ostream* out) { *out << param.op << "_" << param.sample.label; }

std::vector<SampleParam> all_samples() {
  std::vector<SampleParam> params;
  for (const NamedOpCases& named : ops::all_op_cases())
    for (const Sample& sample : named.cases.samples) params.push_back({std::string(named.op), sample});
  return params;
}

class OpSampleTest : public ::testing::TestWithParam<SampleParam> {};

TEST_P(OpSampleTest, HostFp32BaselineAgreesWithFp64Reference) {
  const SampleParam& param = GetParam();
  const Op& op = test::op_named(param.op);
  std::mt19937_64 rng(0x6b6276);  // fixed seed: failures reproduce
  std::vector<std::vector<float>> inputs32;
  std::vector<std::vector<double>> inputs64;
  const InputDomain domain = op.input_domain(with_defaults(op, param.sample.attrs));
  for (size_t i = 0; i < param.sample.inputs.size(); ++i) {
    inputs32.push_back(test::random_floats(param.sample.inputs[i], rng));
    for (float& value : inputs32.back()) value = kbv::inputs::within_domain(domain, value);  // log: |x|
    ops::make_class_indices(param.sample, i, inputs32.back());
    inputs64.push_back(test::widen(inputs32.back()));
  }
  const std::vector<float> baseline = test::run_op<float>(op, param.sample.inputs, inputs32, param.sample.attrs);
  const std::vector<double> reference = test::run_op<double>(op, param.sample.inputs, inputs64, param.sample.attrs);
  ASSERT_EQ(baseline.size(), reference.size());
  double largest = 0;
  for (size_t i = 0; i < reference.size(); ++i) {
    ASSERT_TRUE(std::isfinite(reference[i])) << "reference element " << i;
    ASSERT_TRUE(std::isfinite(baseline[i])) << "baseline element " << i;
    largest = std::max(largest, std::fabs(reference[i]));
  }
  EXPECT_LT(test::relative_l2(baseline, reference), kMaxRelativeL2);
  EXPECT_GT(largest, 0.0) << "the reference is all zeros, so the comparison shows nothing";
}

INSTANTIATE_TEST_SUITE_P(EverySample, OpSampleTest, ::testing::ValuesIn(all_samples()),
                         [](const auto& param_info) { return param_info.param.op + "_" + param_info.param.sample.label; });

// Red-team: a dilation of 2^53 wrapped dilation*(k-1) to 0 in int64, the spec was accepted, and
// the fp64 reference indexed outside its input (SIGSEGV in the evaluator). Every term of the
// sliding-window formulas is bounded by 2^40 now (op_support.hpp, kMaxSpatialExtent).
TEST(OpCases, SlidingWindowAttributesThatOverflowAreRefused) {
  constexpr double kHuge = 9007199254740992.0;  // 2^53, the largest exact integer attribute
  expect_rejected(test::op_named("conv1d"), {{1, 1, 8}, {1, 1, 2049}}, {{"dilation", kHuge}}, "dilation*(k-1) is beyond 2^40");
  expect_rejected(test::op_named("conv_transpose1d"), {{1, 1, 2049}, {1, 1, 1}}, {{"stride", kHuge}}, "stride is");
  expect_rejected(test::op_named("maxpool1d"), {{1, 1, 8}}, {{"kernel", 2049}, {"dilation", kHuge}}, "dilation*(kernel-1) is beyond 2^40");
  expect_rejected(test::op_named("conv1d"), {{1, 1, 8}, {1, 1, 2}}, {{"padding", kHuge}}, "padding is");
}

// Both lists come from the op folders: every op has its cases, in the registry's order.
TEST(OpCases, EveryRegisteredOpHasCases) {
  ASSERT_EQ(ops::all_op_cases().size(), all_ops().size());
  for (size_t i = 0; i < all_ops().size(); ++i)
    EXPECT_EQ(ops::all_op_cases()[i].op, all_ops()[i]->name());
}

}  // namespace
}  // namespace kbv
