// tests/cuda/measure/baseline_ops_test.cpp — every op's CUDA baseline, in TF32 and in FP32
// mode, against the fp64 host reference (kbv::find_op(op)->reference_f64) on the op's samples
// (ops/<name>/cases.cpp), shapes that reach the vectorised and the scalar paths, rows and
// columns, fused and split kernels.
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "measure/baseline/cuda_baseline.hpp"
#include "measure/support/library_errors.hpp"
#include "ops/op_cases.hpp"
#include "ops/registry.hpp"
#include "verify/compare.hpp"

namespace kbv::cuda::measure_testing {
namespace {

struct OpCase {
  std::string label;
  std::string op;
  std::vector<Shape> inputs;
  Attrs attrs;
  ops::Sample sample;  // for its class-index inputs
};

// Readable parameters in test listings and failure messages.
void PrintTo(const OpCase& op_case, std::ostream* os) { *os << op_case.label; }

// Tolerances as in spec/problem.hpp: |out − ref| ≤ atol·rms(ref) + rtol·|ref|, rel_l2 bound.
// exact: fp32 arithmetic, a few ulps per element plus reduction rounding.
constexpr Tolerance kExact{2e-5, 2e-5, 1e-5};
// tensor-core ops in strict fp32: K-term dot products; cuDNN may pick FFT or Winograd.
constexpr Tolerance kTensorFp32{1e-4, 1e-4, 5e-5};
// tensor-core ops in TF32: inputs rounded to 10 mantissa bits (2^-11 relative each).
constexpr Tolerance kTensorTf32{1e-2, 1e-2, 5e-3};

// index ops (argmax): the same indices, exactly.
constexpr Tolerance kIndex{0, 0, 0};

Tolerance tolerance_for(const std::string& op, MathMode mode) {
  if (find_op(op)->precision_class() == PrecisionClass::exact) return kExact;
  if (find_op(op)->precision_class() == PrecisionClass::index) return kIndex;
  return mode == MathMode::tf32 ? kTensorTf32 : kTensorFp32;
}

// Every op folder's samples, named <op>_<sample>.
std::vector<OpCase> op_cases() {
  std::vector<OpCase> cases;
  for (const ops::NamedOpCases& named : ops::all_op_cases())
    for (const ops::Sample& sample : named.cases.samples)
      cases.push_back({std::string(named.op) + "_" + sample.label, std::string(named.op),
                       sample.inputs, sample.attrs, sample});
  return cases;
}

class BaselineOpTest : public GpuTest,
                       public ::testing::WithParamInterface<std::tuple<OpCase, MathMode>> {};

TEST_P(BaselineOpTest, MatchesFp64Reference) {
  const auto& [op_case, mode] = GetParam();
  const ResolvedProblem problem = single_op_problem(op_case.op, op_case.inputs, op_case.attrs);

  std::vector<std::vector<float>> host_inputs;
  std::vector<measure::DeviceMemory> device_inputs;
  std::vector<const float*> inputs;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
    host_inputs.push_back(random_values(static_cast<size_t>(numel(problem.input_shapes[i])),
                                        1000 + i));
    const InputDomain domain = find_op(op_case.op)->input_domain(problem.problem.graph.at(0).attrs);
    for (float& value : host_inputs.back()) value = kbv::inputs::within_domain(domain, value);  // log: |x|
    ops::make_class_indices(op_case.sample, i, host_inputs.back());
    device_inputs.push_back(upload(host_inputs.back()));
    inputs.push_back(device_inputs.back().as<float>());
  }
  const auto out_count = static_cast<size_t>(numel(problem.output_shapes[0]));
  measure::DeviceMemory output(out_count * sizeof(float), "test output");
  // A NaN pattern, so an element the baseline never writes fails the comparison.
  measure::check(cudaMemset(output.get(), 0xff, out_count * sizeof(float)), "cudaMemset");

  CudaBaseline baseline(problem, mode);
  std::printf("[%s %s] %s", op_case.label.c_str(), std::string(to_string(mode)).c_str(),
              baseline.describe().c_str());
  baseline.run(inputs, {output.as<float>()}, nullptr);
  const std::vector<float> result = download(output.get(), out_count);

  // Inputs must come back unchanged (the baseline never writes them).
  for (size_t i = 0; i < host_inputs.size(); ++i)
    EXPECT_EQ(download(device_inputs[i].get(), host_inputs[i].size()), host_inputs[i])
        << "input " << i << " was modified";

  const std::vector<double> reference = reference_of(problem, host_inputs);
  const CompareResult compared =
      compare_output(result.data(), reference.data(), static_cast<int64_t>(out_count), 0,
                     tolerance_for(op_case.op, mode));
  std::printf("[%s %s] %s\n", op_case.label.c_str(), std::string(to_string(mode)).c_str(),
              compared.summary().c_str());
  EXPECT_TRUE(compared.passed) << compared.summary();
}

std::string case_name(const ::testing::TestParamInfo<BaselineOpTest::ParamType>& info) {
  return std::get<0>(info.param).label + "_" + std::string(to_string(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(EveryOp, BaselineOpTest,
                         ::testing::Combine(::testing::ValuesIn(op_cases()),
                                            ::testing::Values(MathMode::tf32, MathMode::fp32)),
                         case_name);

// TF32 must really be engaged in tf32 mode (and absent in fp32 mode): on a GEMM large enough
// for cuBLAS to pick tensor-core kernels, TF32's input rounding (2^-11) shows as an error far
// above strict fp32's.
TEST_F(GpuTest, Tf32ModeRoundsAndFp32ModeDoesNot) {
  constexpr int64_t kSize = 1024;
  const ResolvedProblem problem = single_op_problem("matmul", {{kSize, kSize}, {kSize, kSize}});
  const std::vector<std::vector<float>> host = {random_values(kSize * kSize, 7),
                                                random_values(kSize * kSize, 8)};
  const measure::DeviceMemory a = upload(host[0]), b = upload(host[1]);
  measure::DeviceMemory out(kSize * kSize * sizeof(float), "test output");
  const std::vector<double> reference = reference_of(problem, host);
  double errors[2] = {0, 0};
  for (MathMode mode : {MathMode::tf32, MathMode::fp32}) {
    CudaBaseline baseline(problem, mode);
    baseline.run({a.as<float>(), b.as<float>()}, {out.as<float>()}, nullptr);
    const std::vector<float> result = download(out.get(), kSize * kSize);
    errors[mode == MathMode::tf32 ? 0 : 1] =
        compare_output(result.data(), reference.data(), kSize * kSize, 0, kTensorTf32).rel_l2_error;
  }
  std::printf("matmul 1024^3 rel_l2 error: tf32 %.3e, fp32 %.3e (ratio %.1f)\n", errors[0],
              errors[1], errors[1] > 0 ? errors[0] / errors[1] : 0.0);
  constexpr double kMinimumRatio = 10;  // TF32 ≈ 1e-4, strict fp32 ≈ 1e-7 here
  EXPECT_GT(errors[0], kMinimumRatio * errors[1]) << "TF32 does not seem to be engaged";
  EXPECT_LT(errors[0], kTensorTf32.rel_l2);
}

// CudaBaseline::time_units (benchmarks' view of where a run's time goes): one entry per launch
// unit, a positive median, the bytes of the unit's tensors, and the same outputs as run().
TEST_F(GpuTest, TimeUnitsTimesEveryLaunchUnitAndComputesWhatRunDoes) {
  const ResolvedProblem problem = single_op_problem("matmul", {{64, 48}, {48, 40}}, {});
  std::vector<measure::DeviceMemory> buffers;
  std::vector<const float*> inputs;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
    buffers.push_back(upload(random_values(static_cast<size_t>(numel(problem.input_shapes[i])), 300 + i)));
    inputs.push_back(buffers.back().as<float>());
  }
  const auto count = static_cast<size_t>(numel(problem.output_shapes[0]));
  measure::DeviceMemory by_run(count * sizeof(float), "run output"), by_units(count * sizeof(float), "time_units output");
  CudaBaseline baseline(problem, MathMode::fp32);
  baseline.run(inputs, {by_run.as<float>()}, nullptr);
  const std::vector<CudaBaseline::UnitTime> units = baseline.time_units(inputs, {by_units.as<float>()}, nullptr, 3);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_GT(units[0].median_s, 0);
  EXPECT_DOUBLE_EQ(units[0].bytes, (64.0 * 48 + 48.0 * 40 + 64.0 * 40) * sizeof(float));
  EXPECT_EQ(download(by_units.get(), count), download(by_run.get(), count));
  EXPECT_THROW((void)baseline.time_units({}, {by_units.as<float>()}, nullptr, 1), std::invalid_argument);
}

// A product with odd K and N and over 2^30 multiply-adds takes the padded form (blas.cpp, as
// torch.compile's pad_mm): its operands copied to 16-byte aligned rows with zero pads
// (pad_copy.cu), the result cropped back out. Every layout (A and B stored transposed or not),
// both math modes, against the fp64 reference; the op cases are far below the size where the
// library pads.
TEST_F(GpuTest, PaddedGemmMatchesTheReferenceInEveryLayout) {
  constexpr int64_t kM = 1031, kK = 1029, kN = 1027;  // 1.09e9 multiply-adds, none a multiple of 4
  for (const bool transpose_a : {false, true})
    for (const bool transpose_b : {false, true}) {
      const Shape a_shape = transpose_a ? Shape{kK, kM} : Shape{kM, kK};
      const Shape b_shape = transpose_b ? Shape{kN, kK} : Shape{kK, kN};
      const ResolvedProblem problem = single_op_problem(
          "matmul", {a_shape, b_shape}, {{"transpose_a", transpose_a ? 1.0 : 0.0}, {"transpose_b", transpose_b ? 1.0 : 0.0}});
      const std::vector<std::vector<float>> host = {random_values(static_cast<size_t>(kM * kK), 11),
                                                    random_values(static_cast<size_t>(kK * kN), 12)};
      const measure::DeviceMemory a = upload(host[0]), b = upload(host[1]);
      measure::DeviceMemory out(static_cast<size_t>(kM * kN) * sizeof(float), "test output");
      const std::vector<double> reference = reference_of(problem, host);
      for (MathMode mode : {MathMode::tf32, MathMode::fp32}) {
        SCOPED_TRACE(std::string("transpose_a ") + (transpose_a ? "1" : "0") + ", transpose_b " + (transpose_b ? "1" : "0") + ", " +
                     std::string(to_string(mode)));
        CudaBaseline baseline(problem, mode);
        EXPECT_NE(baseline.describe().find("padded"), std::string::npos) << baseline.describe();
        baseline.run({a.as<float>(), b.as<float>()}, {out.as<float>()}, nullptr);
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        const std::vector<float> result = download(out.get(), static_cast<size_t>(kM * kN));
        const CompareResult compared =
            compare_output(result.data(), reference.data(), static_cast<size_t>(kM * kN), 0, mode == MathMode::tf32 ? kTensorTf32 : kTensorFp32);
        EXPECT_TRUE(compared.passed) << compared.summary();
      }
    }
}

}  // namespace
}  // namespace kbv::cuda::measure_testing

namespace kbv::cuda {
void PrintTo(MathMode mode, std::ostream* os) { *os << to_string(mode); }
}  // namespace kbv::cuda
