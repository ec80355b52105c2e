// tests/cuda/data/reference_ops_test.cpp — every op's CUDA fp64 reference agrees with the host
// registry's reference_f64 on its samples (ops/<name>/cases.cpp; normwise relative difference
// below 1e-12) and gives its hand-worked values; the convolutions also in many small im2col chunks.
#include "data/reference_ops.hpp"
#include "gpu_test_support.hpp"
#include "ops/common/convolution.hpp"
#include "ops/common/reference/convolution_f64.hpp"
#include "ops/op_cases.hpp"
#include "ops/registry.hpp"

namespace kbv::cuda::testing {
namespace {

// fp64 references computed in different orders (a loop vs a tree reduction or cuBLAS's
// blocking) differ by a few ulps times the length of the longest sum: ~1e-15 for these shapes.
// 1e-12 leaves three orders of magnitude of margin and still catches any real disagreement
// (a wrong index, attribute or formula shows up at 1e-3 or worse).
constexpr double kMaxNormwiseDifference = 1e-12;
// The hand-worked values hold to this per element, as on the host (tests/ops/op_cases_test.cpp).
constexpr double kHandValueTolerance = 1e-12;

std::string shapes_text(const ops::Sample& sample) {
  std::string text = sample.label + " (";
  for (size_t i = 0; i < sample.inputs.size(); ++i)
    text += (i ? ", " : "") + to_string(sample.inputs[i]);
  return text + ")";
}

Attrs complete_attrs(const Op& op, const Attrs& overrides) {
  Attrs attrs = op.attribute_defaults();
  for (const auto& [name, value] : overrides) attrs[name] = value;
  return attrs;
}

class DeviceReferenceTest : public GpuTest, public ::testing::WithParamInterface<std::string> {
 protected:
  const Op& op() const { return *find_op(GetParam()); }
  const ops::OpCases& cases() const {
    for (const ops::NamedOpCases& named : ops::all_op_cases())
      if (named.op == GetParam()) return named.cases;
    throw std::runtime_error("no cases for " + GetParam());
  }

  // Runs one sample on host and device from the same random inputs; returns the difference.
  // A nonzero `conv_column_budget` runs a convolution with that im2col budget and at most
  // `conv_images_per_gemm` whole images a GEMM.
  Difference run_sample(const ops::Sample& sample, uint64_t seed, size_t conv_column_budget = 0,
                        int64_t conv_images_per_gemm = ops::reference::kConvImagesPerGemm) {
    const Attrs attrs = complete_attrs(op(), sample.attrs);
    const Shape out_shape = op().infer_shape(sample.inputs, attrs);
    std::vector<std::vector<double>> host_inputs;
    std::vector<DeviceBuffer<double>> device_inputs;
    OpArgs<double> host_args, device_args;
    for (size_t i = 0; i < sample.inputs.size(); ++i) {
      host_inputs.push_back(random_normal(static_cast<size_t>(numel(sample.inputs[i])), seed + i));
      for (double& value : host_inputs.back()) value = kbv::inputs::within_domain(op().input_domain(attrs), value);  // log: |x|
      ops::make_class_indices(sample, i, host_inputs.back());
      device_inputs.push_back(upload(host_inputs.back()));
      host_args.inputs.push_back(host_inputs.back().data());
      device_args.inputs.push_back(device_inputs.back().get());
    }
    std::vector<double> host_out(static_cast<size_t>(numel(out_shape)));
    host_args.input_shapes = device_args.input_shapes = sample.inputs;
    host_args.output_shape = device_args.output_shape = out_shape;
    host_args.attrs = device_args.attrs = &attrs;
    host_args.output = host_out.data();
    op().reference_f64(host_args);

    DeviceBuffer<double> device_out = nan_filled(host_out.size());
    device_args.output = device_out.get();
    const ReferenceContext context(stream());
    if (conv_column_budget != 0)
      ops::reference::convolution_f64_device(GetParam(), device_args, context, conv_column_budget, conv_images_per_gemm);
    else
      run_op_f64_device(GetParam(), device_args, context);
    return normwise_difference(download(device_out.get(), host_out.size()), host_out);
  }

  void expect_agreement(const ops::Sample& sample, const Difference& d) {
    EXPECT_LT(d.relative, kMaxNormwiseDifference)
        << GetParam() << " " << shapes_text(sample) << ": device vs host fp64 reference differ by "
        << d.relative << " (normwise), max abs " << d.max_abs << " at element " << d.worst_index;
  }
};

TEST_P(DeviceReferenceTest, MatchesTheHostReferenceOnEverySample) {
  uint64_t seed = 2000;
  for (const ops::Sample& sample : cases().samples) {
    SCOPED_TRACE(shapes_text(sample));
    expect_agreement(sample, run_sample(sample, seed));
    seed += 10;
  }
}

// The hand-worked values hold on the device too: NaN propagation, padding, broadcasting.
TEST_P(DeviceReferenceTest, GivesTheHandWorkedValues) {
  const ReferenceContext context(stream());
  for (const ops::ValueCase& value : cases().values) {
    SCOPED_TRACE(value.what);
    const Attrs attrs = complete_attrs(op(), value.attrs);
    std::vector<DeviceBuffer<double>> inputs;
    OpArgs<double> args;
    for (const std::vector<double>& data : value.data) {
      inputs.push_back(upload(data));
      args.inputs.push_back(inputs.back().get());
    }
    args.input_shapes = value.inputs;
    args.output_shape = op().infer_shape(value.inputs, attrs);
    args.attrs = &attrs;
    DeviceBuffer<double> output = nan_filled(value.expected.size());
    args.output = output.get();
    run_op_f64_device(GetParam(), args, context);
    const std::vector<double> got = download(output.get(), value.expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::isnan(value.expected[i]))
        EXPECT_TRUE(std::isnan(got[i])) << "element " << i << " is " << got[i] << ", expected NaN";
      else
        EXPECT_NEAR(got[i], value.expected[i], kHandValueTolerance) << "element " << i;
    }
  }
}

std::vector<std::string> case_ops() {
  std::vector<std::string> names;
  for (const ops::NamedOpCases& named : ops::all_op_cases()) names.emplace_back(named.op);
  return names;
}

INSTANTIATE_TEST_SUITE_P(EveryOp, DeviceReferenceTest, ::testing::ValuesIn(case_ops()),
                         [](const auto& param_info) { return param_info.param; });

// The convolutions' im2col in chunks: a budget of a few columns forces chunks that split output
// rows, planes and images, on every sample of every convolution op.
class ConvolutionChunksTest : public DeviceReferenceTest {};

TEST_P(ConvolutionChunksTest, ManySmallChunksMatchTheHostReference) {
  constexpr size_t kTinyColumnBudget = 8 * 36 * 7;  // 7 columns of 36 fp64 rows
  for (const ops::Sample& sample : cases().samples) {
    SCOPED_TRACE(shapes_text(sample) + " chunked");
    expect_agreement(sample, run_sample(sample, 77, kTinyColumnBudget));
  }
}

std::vector<std::string> convolution_ops() {
  std::vector<std::string> names;
  for (const std::string& name : case_ops())
    if (ops::convolution_form_of(*find_op(name))) names.push_back(name);
  return names;
}

// Whole images batched into one strided GEMM (every image of a sample in one, where the budget
// holds them), and a budget that splits images, where batching must fall back to one image a GEMM.
TEST_P(ConvolutionChunksTest, ImagesBatchedInOneGemmMatchTheHostReference) {
  constexpr int64_t kEveryImage = int64_t{1} << 20;
  constexpr size_t kTinyColumnBudget = 8 * 36 * 7;
  for (const ops::Sample& sample : cases().samples) {
    SCOPED_TRACE(shapes_text(sample) + " batched");
    expect_agreement(sample, run_sample(sample, 91, ops::reference::kConvColumnBudgetBytes, kEveryImage));
    expect_agreement(sample, run_sample(sample, 92, ops::reference::kConvColumnBudgetBytes, 2));
    expect_agreement(sample, run_sample(sample, 93, kTinyColumnBudget, kEveryImage));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryConvolution, ConvolutionChunksTest, ::testing::ValuesIn(convolution_ops()),
                         [](const auto& param_info) { return param_info.param; });

class ReferenceOpsTest : public GpuTest {};

TEST_F(ReferenceOpsTest, MismatchedShapesAreRejectedBeforeAnyLaunch) {
  const ReferenceContext context(stream());
  DeviceBuffer<double> a(6), b(6), y(4);
  OpArgs<double> args;
  args.inputs = {a.get(), b.get()};
  args.input_shapes = {{2, 3}, {2, 3}};  // inner dims 3 vs 2 do not match
  args.output = y.get();
  args.output_shape = {2, 3};
  const Attrs none;
  args.attrs = &none;
  EXPECT_THROW(run_op_f64_device("matmul", args, context), OpError);
  EXPECT_THROW(run_op_f64_device("no_such_op", args, context), OpError);
  args.input_shapes = {{2, 3}, {3, 2}};
  args.output_shape = {2, 3};  // should be [2, 2]
  EXPECT_THROW(run_op_f64_device("matmul", args, context), OpError);
}

TEST_F(ReferenceOpsTest, ZeroImagesPerConvolutionGemmIsRejected) {
  const ReferenceContext context(stream());
  DeviceBuffer<double> x(2 * 1 * 4 * 4), w(1 * 1 * 3 * 3), y(2 * 1 * 2 * 2);
  OpArgs<double> args;
  args.inputs = {x.get(), w.get()};
  args.input_shapes = {{2, 1, 4, 4}, {1, 1, 3, 3}};
  args.output = y.get();
  args.output_shape = {2, 1, 2, 2};
  const Attrs attrs = complete_attrs(*find_op("conv2d"), {});
  args.attrs = &attrs;
  EXPECT_NO_THROW(ops::reference::convolution_f64_device("conv2d", args, context, ops::reference::kConvColumnBudgetBytes, 1));
  EXPECT_THROW(ops::reference::convolution_f64_device("conv2d", args, context, ops::reference::kConvColumnBudgetBytes, 0), OpError);
}

}  // namespace
}  // namespace kbv::cuda::testing
