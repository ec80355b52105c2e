// error_scale_test.cpp — the products' error scale (graph/error_scale_graph.hpp): the graph
// derived from a problem computes sqrt(Σ x²·w²) through products and propagates it through bias,
// relu, scale and residual; a problem without a product has none; the comparison loosens by it only
// where products cancel (an honest TF32-sized error passes, a bf16-sized one on a zero-mean output
// still fails); and the host data plane judges by it exactly where the default rule fails.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "mapped_host_plane.hpp"
#include "unit_test_support.hpp"
#include "graph/error_scale_graph.hpp"
#include "graph/run_graph.hpp"
#include "inputs/epoch_plan.hpp"
#include "spec/catalog.hpp"
#include "spec/problem.hpp"
#include "verify/compare.hpp"

namespace {

using kbv::test::inline_problem;
using kbv::test::rounded_mantissa;

kbv::ResolvedProblem bundled(const char* file) {
  return kbv::resolve_problem(kbv::load_problem_file(std::filesystem::path(KBV_PROBLEMS_DIR) / file), "small");
}

// N(0, 1) for a float input; an int64 or bool input's values uniform in its range (at least {low}).
std::vector<kbv::HostTensor<double>> random_inputs(const kbv::ResolvedProblem& problem, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<kbv::HostTensor<double>> inputs;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
    auto& tensor = inputs.emplace_back(problem.input_shapes[i]);
    const kbv::IntegerRange& range = problem.input_ranges[i];
    const auto values = static_cast<uint64_t>(std::max<int64_t>(1, range.high - range.low));
    for (double& v : tensor.data)
      v = problem.input_dtype(i) == kbv::DType::float32 ? normal(rng) : static_cast<double>(range.low + static_cast<int64_t>(rng() % values));
  }
  return inputs;
}

std::vector<const double*> pointers(const std::vector<kbv::HostTensor<double>>& tensors) {
  std::vector<const double*> result;
  for (const auto& t : tensors) result.push_back(t.data.data());
  return result;
}

// sqrt(Σ_k x[r,k]²·w[c,k]²) for nn.Linear's layout (x [rows, K], w [cols, K]).
double linear_scale(const kbv::HostTensor<double>& x, const kbv::HostTensor<double>& w, int64_t r, int64_t c) {
  const int64_t k_extent = x.shape[1];
  double sum = 0;
  for (int64_t k = 0; k < k_extent; ++k) {
    const double product = x.data[static_cast<size_t>(r * k_extent + k)] * w.data[static_cast<size_t>(c * k_extent + k)];
    sum += product * product;
  }
  return std::sqrt(sum);
}

TEST(ErrorScaleGraph, AProductsScaleIsTheRootOfItsSquaredProductsThroughBiasAndRelu) {
  const kbv::ResolvedProblem problem = bundled("kernelbench/kb_l2_76_gemm_add_relu.yaml");  // relu(x·Wᵀ + b)
  const auto graph = kbv::error_scale_graph(problem);
  ASSERT_TRUE(graph.has_value());
  ASSERT_EQ(graph->scale_of_output, std::vector<int>{0});
  ASSERT_EQ(graph->problem.output_shapes, problem.output_shapes);
  const auto inputs = random_inputs(problem, 1);
  const auto scales = kbv::run_reference_f64(graph->problem, pointers(inputs));
  const int64_t cols = problem.output_shapes[0][1];
  for (int64_t r = 0; r < problem.output_shapes[0][0]; ++r)
    for (int64_t c = 0; c < cols; ++c)
      ASSERT_NEAR(scales[0].data[static_cast<size_t>(r * cols + c)], linear_scale(inputs[0], inputs[1], r, c), 1e-12)
          << "row " << r << " column " << c;
}

TEST(ErrorScaleGraph, AScaledResidualAddsBothPathsScales) {
  const kbv::ResolvedProblem problem = bundled("matmul_scale_residual.yaml");  // y = 0.5·t0 + t0, t0 = x·Wᵀ + b
  const auto graph = kbv::error_scale_graph(problem);
  ASSERT_TRUE(graph.has_value());
  const auto inputs = random_inputs(problem, 2);
  const auto scales = kbv::run_reference_f64(graph->problem, pointers(inputs));
  const int64_t cols = problem.output_shapes[0][1];
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t c = 0; c < cols; ++c)
      ASSERT_NEAR(scales[0].data[static_cast<size_t>(r * cols + c)], 1.5 * linear_scale(inputs[0], inputs[1], r, c), 1e-12);
}

TEST(ErrorScaleGraph, AProblemWithoutAProductHasNone) {
  for (const char* file : {"relu.yaml", "softmax.yaml", "layernorm.yaml", "sum_dim1.yaml", "maxpool2d.yaml"})
    EXPECT_FALSE(kbv::error_scale_graph(bundled(file)).has_value()) << file;
}

// A product feeding softmax has no error scale at softmax's output (the path ends there); a sum
// over a product's relu has sqrt(Σ S²); an output that is the product itself has S.
TEST(ErrorScaleGraph, APathEndsAtAnOpItCannotBoundAndReductionsSumInQuadrature) {
  const kbv::ResolvedProblem problem = inline_problem(R"(name: paths
level: 2
inputs:
  - {name: x, shape: [rows, k]}
  - {name: w, shape: [cols, k]}
outputs:
  - {name: probabilities, shape: [rows, cols]}
  - {name: total, shape: [rows, 1]}
  - {name: product, shape: [rows, cols]}
graph:
  - {name: linear, op: linear, inputs: [x, w], output: product}
  - {name: soft, op: softmax, inputs: [product], output: probabilities, attrs: {axis: 1}}
  - {name: relu, op: relu, inputs: [product], output: r}
  - {name: sum, op: sum, inputs: [r], output: total, attrs: {axis: 1}}
tolerance: {atol: 1.0e-2, rtol: 1.0e-2, rel_l2: 2.0e-3}
shapes:
  default: {rows: 4, k: 16, cols: 5}
  small: {rows: 4, k: 16, cols: 5}
)");
  const auto graph = kbv::error_scale_graph(problem);
  ASSERT_TRUE(graph.has_value());
  ASSERT_EQ(graph->scale_of_output, (std::vector<int>{-1, 0, 1}));
  const auto inputs = random_inputs(problem, 3);
  const auto scales = kbv::run_reference_f64(graph->problem, pointers(inputs));
  for (int64_t r = 0; r < 4; ++r) {
    double sum_sq = 0;
    for (int64_t c = 0; c < 5; ++c) {
      const double s = linear_scale(inputs[0], inputs[1], r, c);
      sum_sq += s * s;
      EXPECT_NEAR(scales[1].data[static_cast<size_t>(r * 5 + c)], s, 1e-12);
    }
    EXPECT_NEAR(scales[0].data[static_cast<size_t>(r)], std::sqrt(sum_sq), 1e-12);
  }
}

// Two layers (an MLP): the second product's operand is the first's relu, an intermediate with an
// error scale of its own, so its term is h² + S_h² with h recomputed inside the derived graph.
TEST(ErrorScaleGraph, AProductOfAnIntermediateCarriesItsOperandsScale) {
  const kbv::ResolvedProblem problem = inline_problem(R"(name: two_layers
level: 3
inputs:
  - {name: x, shape: [rows, k]}
  - {name: w1, shape: [hidden, k]}
  - {name: b1, shape: [hidden]}
  - {name: w2, shape: [cols, hidden]}
outputs:
  - {name: y, shape: [rows, cols]}
graph:
  - {name: fc1, op: linear, inputs: [x, w1, b1], output: t0}
  - {name: act, op: relu, inputs: [t0], output: h}
  - {name: fc2, op: linear, inputs: [h, w2], output: y}
tolerance: {atol: 1.0e-2, rtol: 1.0e-2, rel_l2: 2.0e-3}
shapes:
  default: {rows: 3, k: 8, hidden: 6, cols: 5}
  small: {rows: 3, k: 8, hidden: 6, cols: 5}
)");
  const auto graph = kbv::error_scale_graph(problem);
  ASSERT_TRUE(graph.has_value());
  const auto inputs = random_inputs(problem, 6);
  const auto scales = kbv::run_reference_f64(graph->problem, pointers(inputs));
  const auto& x = inputs[0];
  const auto& w1 = inputs[1];
  const auto& b1 = inputs[2];
  const auto& w2 = inputs[3];
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t c = 0; c < 5; ++c) {
      double expected_sq = 0;
      for (int64_t j = 0; j < 6; ++j) {
        double pre = b1.data[static_cast<size_t>(j)];
        for (int64_t k = 0; k < 8; ++k) pre += x.data[static_cast<size_t>(r * 8 + k)] * w1.data[static_cast<size_t>(j * 8 + k)];
        const double h = std::max(pre, 0.0);
        const double s_h = linear_scale(x, w1, r, j);  // relu passes the first product's scale
        const double w = w2.data[static_cast<size_t>(c * 6 + j)];
        expected_sq += (h * h + s_h * s_h) * w * w;
      }
      EXPECT_NEAR(scales[0].data[static_cast<size_t>(r * 5 + c)], std::sqrt(expected_sq), 1e-12) << r << ", " << c;
    }
}

// Every bundled problem (the curated ones and every KernelBench import) derives its error-scale
// graph without an error; where it has one, the host engine runs it at the small shapes and every
// scale is finite and nonnegative. A derivation that threw would fail the problem's evaluations.
TEST(ErrorScaleGraph, EveryBundledProblemDerivesOneThatRuns) {
  const kbv::ProblemCatalog catalog = kbv::ProblemCatalog::load(KBV_PROBLEMS_DIR);
  int with_scale = 0, ran = 0;
  for (const std::string& name : catalog.names()) {
    const kbv::Problem& spec = catalog.get(name);
    const std::string shape_set = spec.gpu_only_reason.empty() ? "small" : "default";
    const kbv::ResolvedProblem problem = kbv::resolve_problem(spec, shape_set);
    std::optional<kbv::ErrorScaleGraph> graph;
    ASSERT_NO_THROW(graph = kbv::error_scale_graph(problem)) << name;
    if (!graph) continue;
    ++with_scale;
    ASSERT_EQ(graph->scale_of_output.size(), problem.output_shapes.size()) << name;
    if (!spec.gpu_only_reason.empty()) continue;  // default shapes: too large for the host in test time
    const auto inputs = random_inputs(problem, 9);
    const auto scales = kbv::run_reference_f64(graph->problem, pointers(inputs));
    for (size_t o = 0; o < scales.size(); ++o)
      for (double v : scales[o].data) ASSERT_TRUE(std::isfinite(v) && v >= 0) << name << " output " << o << ": " << v;
    ++ran;
  }
  EXPECT_GT(with_scale, 20) << "the GEMM and convolution problems of KernelBench levels 2 and 3 have error scales";
  std::printf("error-scale graphs: %d problems, %d run on the host\n", with_scale, ran);
}

// The propagation rules one by one, from one product t = x·wᵀ (S_t by hand) and a second one u:
// a product by an exact tensor (S·|m|), a division by one (S/|d|, broadcast), a Lipschitz
// activation (sigmoid: S/4), a layout op (transpose: Sᵀ), a min (the max of S along the axis), a
// difference of two products (S_t + S_u).
TEST(ErrorScaleGraph, EachRuleGivesItsValue) {
  const kbv::ResolvedProblem problem = inline_problem(R"(name: rules
level: 2
inputs:
  - {name: x, shape: [rows, k]}
  - {name: w, shape: [cols, k]}
  - {name: w2, shape: [cols, k]}
  - {name: m, shape: [rows, cols]}
  - {name: d, shape: [cols]}
outputs:
  - {name: times, shape: [rows, cols]}
  - {name: over, shape: [rows, cols]}
  - {name: squashed, shape: [rows, cols]}
  - {name: turned, shape: [cols, rows]}
  - {name: least, shape: [rows, 1]}
  - {name: difference, shape: [rows, cols]}
graph:
  - {name: fc, op: linear, inputs: [x, w], output: t}
  - {name: fc2, op: linear, inputs: [x, w2], output: u}
  - {name: times, op: mul, inputs: [t, m], output: times}
  - {name: over, op: div, inputs: [t, d], output: over}
  - {name: squash, op: sigmoid, inputs: [t], output: squashed}
  - {name: turn, op: transpose, inputs: [t], output: turned, attrs: {axis0: 0, axis1: 1}}
  - {name: least, op: amin, inputs: [t], output: least, attrs: {axis: 1}}
  - {name: difference, op: sub, inputs: [t, u], output: difference}
tolerance: {atol: 1.0e-2, rtol: 1.0e-2, rel_l2: 2.0e-3}
shapes:
  default: {rows: 3, k: 8, cols: 5}
  small: {rows: 3, k: 8, cols: 5}
)");
  const auto graph = kbv::error_scale_graph(problem);
  ASSERT_TRUE(graph.has_value());
  ASSERT_EQ(graph->scale_of_output, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  const auto inputs = random_inputs(problem, 8);
  const auto scales = kbv::run_reference_f64(graph->problem, pointers(inputs));
  const auto& m = inputs[3].data;
  const auto& d = inputs[4].data;
  for (int64_t r = 0; r < 3; ++r) {
    double least = 0;
    for (int64_t c = 0; c < 5; ++c) {
      const auto i = static_cast<size_t>(r * 5 + c);
      const double s_t = linear_scale(inputs[0], inputs[1], r, c), s_u = linear_scale(inputs[0], inputs[2], r, c);
      EXPECT_NEAR(scales[0].data[i], s_t * std::fabs(m[i]), 1e-12);
      EXPECT_NEAR(scales[1].data[i], s_t / std::fabs(d[static_cast<size_t>(c)]), 1e-9);
      EXPECT_NEAR(scales[2].data[i], 0.25 * s_t, 1e-12);
      EXPECT_NEAR(scales[3].data[static_cast<size_t>(c * 3 + r)], s_t, 1e-12);
      EXPECT_NEAR(scales[5].data[i], s_t + s_u, 1e-12);
      least = std::max(least, s_t);
    }
    EXPECT_NEAR(scales[4].data[static_cast<size_t>(r)], least, 1e-12);
  }
}

const kbv::Tolerance kTensorCore{1e-2, 1e-2, 2e-3, 1e-7};  // the tensor-core class's tolerance

// Outputs that are small differences of large products (|y| ~ 1e-3, S ~ 1): an error of TF32's
// size, 2⁻¹¹·S, misses the bound set by the output's own RMS everywhere and is well inside
// atol·S; the relative L2 error is judged against ‖S‖.
TEST(CompareByErrorScale, AnHonestTf32ErrorWhereProductsCancelPassesOnlyByTheScale) {
  constexpr int64_t kCount = 4096;
  std::mt19937_64 rng(4);
  std::normal_distribution<double> normal;
  std::vector<double> reference(kCount), scale(kCount);
  std::vector<float> output(kCount);
  for (int64_t i = 0; i < kCount; ++i) {
    reference[i] = 1e-3 * normal(rng);
    scale[i] = 1.0 + 0.1 * std::fabs(normal(rng));
    output[i] = static_cast<float>(reference[i] + std::ldexp(1.0, -11) * scale[i] * normal(rng));
  }
  const auto plain = kbv::compare_output(output.data(), reference.data(), kCount, 0, kTensorCore);
  EXPECT_FALSE(plain.passed);
  EXPECT_FALSE(plain.by_error_scale);
  const auto scaled = kbv::compare_output(output.data(), reference.data(), kCount, 0, kTensorCore, scale.data());
  EXPECT_TRUE(scaled.passed) << scaled.summary();
  EXPECT_TRUE(scaled.by_error_scale);
  EXPECT_LT(scaled.rel_l2_error, 1e-3) << "against ‖S‖, not ‖y‖";
  EXPECT_NE(scaled.summary().find("error scale"), std::string::npos);
}

// On a zero-mean output S ≈ |y| (the products do not cancel): a bf16-sized error (3e-3 relative)
// fails by the relative L2 error with the scale as without it.
TEST(CompareByErrorScale, ABf16SizedErrorWithoutCancellationStillFails) {
  constexpr int64_t kCount = 4096;
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  std::vector<double> reference(kCount), scale(kCount);
  std::vector<float> output(kCount);
  for (int64_t i = 0; i < kCount; ++i) {
    reference[i] = normal(rng);
    scale[i] = std::fabs(reference[i]) * (0.8 + 0.4 * std::fabs(normal(rng)) / 3.0) + 0.3;
    output[i] = static_cast<float>(reference[i] * (1.0 + 3e-3 * normal(rng)));
  }
  const auto scaled = kbv::compare_output(output.data(), reference.data(), kCount, 0, kTensorCore, scale.data());
  EXPECT_FALSE(scaled.passed) << scaled.summary();
  EXPECT_GT(scaled.rel_l2_error, kTensorCore.rel_l2);
}

// relu(x·wᵀ) on zero-mean inputs: relu zeroes half the outputs and their error with them, while
// ||S|| keeps every product, so against ||S|| a bf16 GEMM's rel-L2 drops by √2 (2.35e-3 → 1.7e-3):
// under the problem's 2e-3 it would pass by the error scale, which is why that rule's bound is
// kErrorScaleRelL2Share of it. A TF32 GEMM (2e-4 against ||S||) passes it.
TEST(CompareByErrorScale, ABf16GemmFailsByTheScaleEvenAfterARelu) {
  constexpr int64_t kRows = 64, kK = 256, kCols = 64;
  std::mt19937_64 rng(12);
  std::normal_distribution<double> normal;
  std::vector<double> x(kRows * kK), w(kCols * kK);
  for (double& v : x) v = static_cast<float>(normal(rng));
  for (double& v : w) v = static_cast<float>(normal(rng) / 16.0);
  std::vector<double> reference(kRows * kCols), scale(kRows * kCols);
  std::vector<float> bf16(kRows * kCols), tf32(kRows * kCols);
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t c = 0; c < kCols; ++c) {
      double exact = 0, squares = 0, low = 0, high = 0;
      for (int64_t k = 0; k < kK; ++k) {
        const double a = x[static_cast<size_t>(r * kK + k)], b = w[static_cast<size_t>(c * kK + k)];
        exact += a * b;
        squares += a * a * b * b;
        low += rounded_mantissa(a, 7) * rounded_mantissa(b, 7);
        high += rounded_mantissa(a, 10) * rounded_mantissa(b, 10);
      }
      const auto i = static_cast<size_t>(r * kCols + c);
      reference[i] = std::max(exact, 0.0);
      scale[i] = std::sqrt(squares);  // relu passes the product's scale
      bf16[i] = static_cast<float>(std::max(low, 0.0));
      tf32[i] = static_cast<float>(std::max(high, 0.0));
    }
  const int64_t count = kRows * kCols;
  const auto bf16_plain = kbv::compare_output(bf16.data(), reference.data(), count, kCols, kTensorCore);
  EXPECT_FALSE(bf16_plain.passed) << bf16_plain.summary();
  const auto bf16_scaled = kbv::compare_output(bf16.data(), reference.data(), count, kCols, kTensorCore, scale.data());
  EXPECT_FALSE(bf16_scaled.passed) << bf16_scaled.summary();
  EXPECT_GT(bf16_scaled.rel_l2_error, 1.3e-3) << "≈ 1.7e-3 against ||S||";
  EXPECT_LT(bf16_scaled.rel_l2_error, kTensorCore.rel_l2) << "the problem's own bound would have let it pass";
  const auto tf32_scaled = kbv::compare_output(tf32.data(), reference.data(), count, kCols, kTensorCore, scale.data());
  EXPECT_TRUE(tf32_scaled.passed) << tf32_scaled.summary();
  EXPECT_LT(tf32_scaled.rel_l2_error, 4e-4);
}

// A wrong element is wrong by the scale too: two elements beyond atol·S (more than the one
// outlier 1e-7 of 1000 rounds up to, and one past kOutlierBoundFactor) fail.
TEST(CompareByErrorScale, AnElementBeyondItsScaledAllowanceFails) {
  std::vector<double> reference(1000, 1e-3), scale(1000, 1.0);
  std::vector<float> output(reference.begin(), reference.end());
  output[10] = static_cast<float>(1e-3 + 2 * kTensorCore.atol);   // 2× the scaled allowance
  output[11] = static_cast<float>(1e-3 + 11 * kTensorCore.atol);  // 11×: beyond kOutlierBoundFactor
  const auto scaled = kbv::compare_output(output.data(), reference.data(), 1000, 0, kTensorCore, scale.data());
  EXPECT_FALSE(scaled.passed) << scaled.summary();
  EXPECT_EQ(scaled.violations, 2);
  EXPECT_EQ(scaled.first_violation_index, 10);
}

// The host data plane: an output within atol·S but beyond the default bound passes, reported as
// judged by the error scale; one element past kOutlierBoundFactor·atol·S fails. relu(x·wᵀ) on the
// normal family: relu zeroes half the outputs, so a zero output's products' scale is ~1.4× the
// output's RMS, and several elements lie between the two bounds.
TEST(HostDataPlaneErrorScale, JudgesByTheScaleExactlyWhereTheDefaultRuleFails) {
  const kbv::ResolvedProblem problem = inline_problem(R"(name: relu_of_product
level: 2
inputs:
  - {name: x, shape: [rows, k]}
  - {name: w, shape: [cols, k], role: parameter, scale: inv_sqrt_fan_in}
outputs:
  - {name: y, shape: [rows, cols]}
graph:
  - {name: linear, op: linear, inputs: [x, w], output: t0}
  - {name: relu, op: relu, inputs: [t0], output: y}
tolerance: {atol: 1.0e-2, rtol: 1.0e-2, rel_l2: 2.0e-3}
shapes:
  default: {rows: 32, k: 64, cols: 48}
  small: {rows: 32, k: 64, cols: 48}
)");
  const kbv::Tolerance& tolerance = problem.problem.tolerance;
  kbv::test::MappedHostPlane mapped(problem, kbv::inputs::Family::normal, 7, 11);

  // The trusted side's inputs and reference, read back; the scale from the derived graph.
  std::vector<kbv::HostTensor<double>> inputs;
  for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
    auto& input = inputs.emplace_back(problem.input_shapes[i]);
    const float* values = mapped.input(i);
    for (size_t e = 0; e < input.data.size(); ++e) input.data[e] = values[e];
  }
  const std::vector<double> reference = mapped.reference();
  const auto graph = kbv::error_scale_graph(problem);
  ASSERT_TRUE(graph.has_value());
  const std::vector<double> scale = kbv::run_reference_f64(graph->problem, pointers(inputs))[0].data;

  // Each element's default allowance atol·max(rms, row rms) + rtol·|ref| (verify/compare.hpp).
  const int64_t cols = problem.output_shapes[0][1];
  const auto count = static_cast<int64_t>(reference.size());
  double total_sq = 0;
  std::vector<double> row_sq(static_cast<size_t>(count / cols));
  for (int64_t i = 0; i < count; ++i) {
    total_sq += reference[i] * reference[i];
    row_sq[static_cast<size_t>(i / cols)] += reference[i] * reference[i];
  }
  const double rms = std::sqrt(total_sq / static_cast<double>(count));
  // Four elements moved halfway between their default allowance and atol·S, where the latter is
  // 1.2× the former or more (more than the one outlier the tolerance excuses).
  std::vector<float> output(reference.begin(), reference.end());
  int64_t moved = 0, last_moved = -1;
  for (int64_t i = 0; i < count && moved < 4; ++i) {
    const double row_rms = std::sqrt(row_sq[static_cast<size_t>(i / cols)] / static_cast<double>(cols));
    const double by_default = tolerance.atol * std::max(rms, row_rms) + tolerance.rtol * std::fabs(reference[i]);
    const double by_scale = tolerance.atol * scale[i] + tolerance.rtol * std::fabs(reference[i]);
    if (by_scale < 1.2 * by_default) continue;
    output[i] = static_cast<float>(reference[i] + 0.5 * (by_default + by_scale));
    ++moved;
    last_moved = i;
  }
  ASSERT_EQ(moved, 4) << "this draw has too few elements whose products' scale exceeds their default allowance";
  float* arena_output = mapped.output();
  std::memcpy(arena_output, output.data(), output.size() * sizeof(float));
  const auto plain = kbv::compare_output(output.data(), reference.data(), count, kbv::local_rms_row_length(problem.output_shapes[0]), tolerance);
  ASSERT_FALSE(plain.passed) << "the moved elements must miss the default rule: " << plain.summary();
  const kbv::CompareResult judged = mapped.plane().check_outputs(0);
  EXPECT_TRUE(judged.passed) << judged.summary();
  EXPECT_TRUE(judged.by_error_scale);

  arena_output[last_moved] = static_cast<float>(reference[static_cast<size_t>(last_moved)] +
                                                11 * tolerance.atol * scale[static_cast<size_t>(last_moved)]);
  const kbv::CompareResult wrong = mapped.plane().check_outputs(0);
  EXPECT_FALSE(wrong.passed) << wrong.summary();
  EXPECT_TRUE(wrong.by_error_scale);
}

}  // namespace
