// tests/ops/problems_test.cpp — every bundled problems/*.yaml loads, resolves at both shape
// sets with KernelBench's sizes, and at the small set its fp32 host baseline passes its own
// tolerance against the fp64 reference while an all-zero output fails it.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "graph/run_graph.hpp"
#include "op_test_support.hpp"
#include "spec/catalog.hpp"
#include "spec/problem.hpp"
#include "verify/compare.hpp"

namespace kbv {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> problem_files() { return yaml_files(KBV_PROBLEMS_DIR); }

// The problem table of docs/helper-brief.md: level, KernelBench id, default input shapes.
struct Expected {
  int level;
  int kernelbench_id;
  std::vector<Shape> default_inputs;
};
const std::map<std::string, Expected>& expected_problems() {
  static const std::map<std::string, Expected> table = {
      {"relu", {1, 19, {{4096, 393216}}}},
      {"gelu", {1, 26, {{4096, 393216}}}},
      {"softmax", {1, 23, {{4096, 65536}}}},
      {"layernorm", {1, 40, {{16, 64, 256, 256}, {64, 256, 256}, {64, 256, 256}}}},
      {"rmsnorm", {1, 36, {{112, 64, 512, 512}}}},
      {"matmul_square", {1, 1, {{4096, 4096}, {4096, 4096}}}},
      {"matmul_irregular", {1, 8, {{8205, 2949}, {2949, 5921}}}},
      {"bmm", {1, 3, {{128, 512, 1024}, {128, 1024, 2048}}}},
      {"conv2d", {1, 63, {{16, 16, 1024, 1024}, {128, 16, 3, 3}}}},
      {"maxpool2d", {1, 42, {{32, 64, 512, 512}}}},
      {"sum_dim1", {1, 47, {{128, 4096, 4095}}}},
      {"conv2d_relu_biasadd",
       {2, 1, {{128, 64, 128, 128}, {128, 64, 3, 3}, {128}, {128, 1, 1}}}},
      {"gemm_bias_gelu", {2, 99, {{1024, 8192}, {8192, 8192}, {8192}}}},
      {"matmul_scale_residual", {2, 40, {{16384, 4096}, {4096, 4096}, {4096}}}},
      {"cross_entropy", {1, 95, {{32768, 4096}, {32768}}}},
  };
  return table;
}

TEST(BundledProblems, EveryFileLoadsAndResolvesBothShapeSets) {
  const std::vector<fs::path> files = problem_files();
  std::set<std::string> names;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    Problem problem = load_problem_file(file);
    EXPECT_EQ(problem.name + ".yaml", file.filename().string());
    EXPECT_FALSE(problem.description.empty());
    names.insert(problem.name);
    for (const char* set : {"default", "small"}) {
      ResolvedProblem resolved = resolve_problem(problem, set);
      EXPECT_GT(resolved.flops, 0) << set;
      EXPECT_GT(resolved.compulsory_bytes, 0) << set;
    }
  }
  std::set<std::string> expected;
  for (const auto& [name, info] : expected_problems()) expected.insert(name);
  EXPECT_EQ(names, expected);
}

TEST(BundledProblems, DefaultShapesAreThoseOfTheProblemTable) {
  for (const auto& [name, info] : expected_problems()) {
    SCOPED_TRACE(name);
    Problem problem = load_problem_file(fs::path(KBV_PROBLEMS_DIR) / (name + ".yaml"));
    EXPECT_EQ(problem.level, info.level);
    EXPECT_EQ(problem.kernelbench_id, info.kernelbench_id);
    EXPECT_EQ(resolve_problem(problem, "default").input_shapes, info.default_inputs);
  }
}

// The tolerance rule of docs/problem-spec.md, by the strictest precision class in the graph.
constexpr Tolerance kExactTolerance{1e-4, 1e-4, 1e-5};
constexpr Tolerance kTensorCoreTolerance{1e-2, 1e-2, 2e-3, 1e-7};

TEST(BundledProblems, TensorCoreProblemsCarryTheTf32Tolerance) {
  for (const fs::path& file : problem_files()) {
    Problem problem = load_problem_file(file);
    bool tensor_core = false;
    for (const Node& node : problem.graph)
      tensor_core |= find_op(node.op)->precision_class() == PrecisionClass::tensor_core;
    const Tolerance expected = tensor_core ? kTensorCoreTolerance : kExactTolerance;
    EXPECT_EQ(problem.tolerance.atol, expected.atol) << problem.name;
    EXPECT_EQ(problem.tolerance.rtol, expected.rtol) << problem.name;
    EXPECT_EQ(problem.tolerance.rel_l2, expected.rel_l2) << problem.name;
    EXPECT_EQ(problem.tolerance.outlier_fraction, expected.outlier_fraction) << problem.name;
  }
}

enum class Draw { uniform01, normal };

// Inputs as KernelBench draws them (U[0,1)) or N(0,1), times each input's declared scale; an
// int64 input uniform over its range and a bool one 0 or 1 (widened, as the trusted side reads them).
std::vector<std::vector<float>> draw_inputs(const ResolvedProblem& resolved, Draw draw,
                                            uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform;
  std::normal_distribution<double> normal;
  std::vector<std::vector<float>> inputs;
  for (size_t i = 0; i < resolved.input_shapes.size(); ++i) {
    const double scale = resolved.input_scale(i);
    std::vector<float> values(static_cast<size_t>(numel(resolved.input_shapes[i])));
    const IntegerRange range = resolved.input_dtype(i) == DType::boolean ? IntegerRange{0, 2} : resolved.input_ranges[i];
    std::uniform_int_distribution<int64_t> integer(range.low, range.high - 1);
    for (float& v : values) {
      if (resolved.input_dtype(i) != DType::float32) v = static_cast<float>(integer(rng));
      else v = static_cast<float>(scale * (draw == Draw::uniform01 ? uniform(rng) : normal(rng)));
    }
    inputs.push_back(std::move(values));
  }
  return inputs;
}

TEST(BundledProblems, SmallBaselinePassesAndZeroOutputFails) {
  for (const fs::path& file : problem_files()) {
    const ResolvedProblem resolved = resolve_problem(load_problem_file(file), "small");
    for (Draw draw : {Draw::uniform01, Draw::normal}) {
      SCOPED_TRACE(resolved.problem.name + (draw == Draw::normal ? " normal" : " uniform01"));
      const auto inputs32 = draw_inputs(resolved, draw, 0x6b627601u);
      std::vector<std::vector<double>> inputs64;
      std::vector<const float*> pointers32;
      std::vector<const double*> pointers64;
      for (const auto& input : inputs32) {
        inputs64.emplace_back(input.begin(), input.end());
        pointers32.push_back(input.data());
        pointers64.push_back(inputs64.back().data());
      }
      const auto reference = run_reference_f64(resolved, pointers64);
      const auto baseline = run_baseline_f32(resolved, pointers32);
      ASSERT_EQ(reference.size(), baseline.size());
      for (size_t o = 0; o < reference.size(); ++o) {
        const int64_t count = numel(reference[o].shape);
        const int64_t row_length = local_rms_row_length(reference[o].shape);
        CompareResult result = compare_output(baseline[o].data.data(), reference[o].data.data(),
                                              count, row_length, resolved.problem.tolerance);
        EXPECT_TRUE(result.passed) << result.summary();
        const std::vector<float> zeros(static_cast<size_t>(count), 0.0f);
        EXPECT_FALSE(compare_output(zeros.data(), reference[o].data.data(), count, row_length,
                                    resolved.problem.tolerance)
                         .passed);
      }
    }
  }
}

}  // namespace
}  // namespace kbv
