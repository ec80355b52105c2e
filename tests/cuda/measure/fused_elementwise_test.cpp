// tests/cuda/measure/fused_elementwise_test.cpp — the CUDA baseline's fused elementwise chains
// (ops/common/baseline/fused_elementwise.cu): on graphs that reach the vector and the scalar
// paths, broadcast operands on either side, a value of the chain read twice and a library node
// before the chain, the fused baseline agrees with the fp64 host reference and with the
// unfused baseline, in both math modes.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "graph/run_graph.hpp"
#include "measure/baseline/cuda_baseline.hpp"
#include "measure/support/library_errors.hpp"
#include "verify/compare.hpp"

namespace kbv::cuda::measure_testing {
namespace {

struct ChainCase {
  std::string label;
  std::string yaml;  // a problem spec (its default and small shape sets are the same)
};
void PrintTo(const ChainCase& chain, std::ostream* os) { *os << chain.label; }

// fp32 against fp64 on short chains of exact ops: a few ulps per op (as baseline_ops_test's exact).
constexpr Tolerance kExact{2e-5, 2e-5, 1e-5};
// With a TF32 matmul before the chain: its input rounding (baseline_ops_test's kTensorTf32).
constexpr Tolerance kTensorTf32{1e-2, 1e-2, 5e-3};
// Fused against unfused on the same device: contraction into FMAs across the fused ops' boundaries
// changes the last bits only.
constexpr double kFusedAgainstUnfused = 1e-6;

std::string spec(const std::string& name, const std::string& inputs, const std::string& graph, const std::string& shapes) {
  return "name: " + name + "\nlevel: 1\ndescription: fused chain test\ninputs:\n" + inputs + "outputs:\n  - {name: y, shape: [n, c, h, w]}\ngraph:\n" +
         graph + "shapes:\n  default: {" + shapes + "}\n  small: {" + shapes + "}\n";
}

const std::string kActivation = "  - {name: x, shape: [n, c, h, w]}\n";
const std::string kChannelBias = "  - {name: bias, shape: [c, 1, 1]}\n";

std::vector<ChainCase> chains() {
  const std::string relu_bias = "  - {name: relu, op: relu, inputs: [x], output: t0}\n  - {name: bias_add, op: add, inputs: [t0, bias], output: y}\n";
  const std::string bias_first = "  - {name: tanh, op: tanh, inputs: [x], output: t0}\n  - {name: bias_add, op: add, inputs: [bias, t0], output: y}\n";
  const std::string residual =
      "  - {name: scaling, op: scale, inputs: [x], output: t0, attrs: {value: 0.5}}\n  - {name: sig, op: sigmoid, inputs: [t0], output: t1}\n"
      "  - {name: residual, op: mul, inputs: [t1, t0], output: y}\n";
  const std::string long_chain =
      "  - {name: a, op: leaky_relu, inputs: [x], output: t0, attrs: {negative_slope: 0.2}}\n"
      "  - {name: b, op: mul, inputs: [t0, bias], output: t1}\n  - {name: c, op: gelu, inputs: [t1], output: t2}\n"
      "  - {name: d, op: add, inputs: [x, t2], output: t3}\n  - {name: e, op: tanh, inputs: [t3], output: y}\n";
  const std::string after_matmul =
      "  - {name: mm, op: matmul, inputs: [x, w], output: t0}\n  - {name: relu, op: relu, inputs: [t0], output: t1}\n"
      "  - {name: bias_add, op: add, inputs: [t1, bias], output: y}\n";
  return {
      {"relu_bias_vector", spec("fused_relu_bias_vector", kActivation + kChannelBias, relu_bias, "n: 3, c: 8, h: 5, w: 12")},
      {"relu_bias_scalar", spec("fused_relu_bias_scalar", kActivation + kChannelBias, relu_bias, "n: 3, c: 8, h: 5, w: 7")},
      {"bias_first", spec("fused_bias_first", kActivation + kChannelBias, bias_first, "n: 2, c: 6, h: 4, w: 8")},
      {"residual", spec("fused_residual", kActivation, residual, "n: 2, c: 3, h: 17, w: 16")},
      {"long_chain", spec("fused_long_chain", kActivation + kChannelBias, long_chain, "n: 2, c: 5, h: 3, w: 9")},
      {"after_matmul",
       "name: fused_after_matmul\nlevel: 1\ndescription: fused chain test\ninputs:\n  - {name: x, shape: [m, k]}\n  - {name: w, shape: [k, n]}\n"
       "  - {name: bias, shape: [n]}\noutputs:\n  - {name: y, shape: [m, n]}\ngraph:\n" +
           after_matmul + "shapes:\n  default: {m: 64, k: 96, n: 40}\n  small: {m: 64, k: 96, n: 40}\n"},
  };
}

class FusedChainTest : public GpuTest, public ::testing::WithParamInterface<std::tuple<ChainCase, MathMode>> {};

TEST_P(FusedChainTest, AgreesWithReferenceAndUnfused) {
  const auto& [chain, mode] = GetParam();
  const std::filesystem::path file = std::filesystem::temp_directory_path() / ("kbv_fused_" + chain.label + ".yaml");
  std::ofstream(file) << chain.yaml;
  const ResolvedProblem problem = resolve_problem(load_problem_file(file), "small");
  std::filesystem::remove(file);

  std::vector<std::vector<float>> host_inputs;
  std::vector<std::vector<double>> wide_inputs;
  std::vector<measure::DeviceMemory> device_inputs;
  std::vector<const float*> inputs;
  std::vector<const double*> wide_pointers;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
    host_inputs.push_back(random_values(static_cast<size_t>(numel(problem.input_shapes[i])), 300 + i, 2.0));
    wide_inputs.emplace_back(host_inputs.back().begin(), host_inputs.back().end());
    device_inputs.push_back(upload(host_inputs.back()));
    inputs.push_back(device_inputs.back().as<float>());
    wide_pointers.push_back(wide_inputs.back().data());
  }
  const auto count = static_cast<size_t>(numel(problem.output_shapes[0]));
  const std::vector<double> reference = run_reference_f64(problem, wide_pointers)[0].data;
  std::vector<std::vector<float>> results;
  for (const bool fuse : {true, false}) {
    measure::DeviceMemory output(count * sizeof(float), "test output");
    measure::check(cudaMemset(output.get(), 0xff, count * sizeof(float)), "cudaMemset");  // NaN where unwritten
    CudaBaseline baseline(problem, mode, fuse);
    std::printf("[%s %s fuse=%d]\n%s", chain.label.c_str(), std::string(to_string(mode)).c_str(), fuse ? 1 : 0, baseline.describe().c_str());
    if (fuse) {
      EXPECT_NE(baseline.describe().find("fused elementwise kernel"), std::string::npos) << "the chain was not fused";
    }
    baseline.run(inputs, {output.as<float>()}, nullptr);
    results.push_back(download(output.get(), count));
    const bool tensor_core = chain.label == "after_matmul" && mode == MathMode::tf32;
    const CompareResult compared =
        compare_output(results.back().data(), reference.data(), static_cast<int64_t>(count), 0, tensor_core ? kTensorTf32 : kExact);
    EXPECT_TRUE(compared.passed) << (fuse ? "fused: " : "unfused: ") << compared.summary();
  }
  for (size_t i = 0; i < count; ++i)
    ASSERT_NEAR(results[0][i], results[1][i], kFusedAgainstUnfused * (1.0 + std::abs(results[1][i]))) << "element " << i;
}

std::string chain_name(const ::testing::TestParamInfo<FusedChainTest::ParamType>& info) {
  return std::get<0>(info.param).label + "_" + std::string(to_string(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(Chains, FusedChainTest,
                         ::testing::Combine(::testing::ValuesIn(chains()), ::testing::Values(MathMode::tf32, MathMode::fp32)), chain_name);

}  // namespace
}  // namespace kbv::cuda::measure_testing
