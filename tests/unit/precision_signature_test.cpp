// precision_signature_test.cpp — the precision check (verify/precision_signature.hpp): which inputs
// a bf16 kernel rounds (graph/operand_rounding.hpp), the rounding itself, and through the host data
// plane, that a bf16 GEMM after a bias and a relu (which the tolerance passes) is caught on a
// zero-mean family while TF32 and fp32 outputs of the same problem pass with their margin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>


#include "graph/operand_rounding.hpp"
#include "graph/products.hpp"
#include "mapped_host_plane.hpp"
#include "spec/catalog.hpp"
#include "unit_test_support.hpp"
#include "verify/compare.hpp"
#include "verify/precision_signature.hpp"

namespace {

using kbv::test::inline_problem;
using kbv::test::rounded_mantissa;

kbv::ResolvedProblem bundled(const std::string& name) {
  return kbv::resolve_problem(kbv::ProblemCatalog::load(KBV_PROBLEMS_DIR).get(name), "small");
}

TEST(Bf16OperandInputs, AreTheProductsOperandInputsAndNeverABias) {
  EXPECT_EQ(kbv::bf16_operand_inputs(bundled("kb_l2_76_gemm_add_relu")), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(kbv::bf16_operand_inputs(bundled("matmul_square")), (std::vector<bool>{true, true}));
  // x, w, the convolution's bias, the added bias
  EXPECT_EQ(kbv::bf16_operand_inputs(bundled("conv2d_relu_biasadd")), (std::vector<bool>{true, true, false, false}));
}

TEST(Bf16OperandInputs, NoneWithoutAProductOrWhereRoundingInputsCannotModelIt) {
  EXPECT_FALSE(kbv::bf16_operand_inputs(bundled("relu")).has_value()) << "no product";
  EXPECT_FALSE(kbv::bf16_operand_inputs(bundled("kb_l3_1_mlp")).has_value()) << "a second layer's operand is an intermediate";
  const auto residual = inline_problem(R"(name: residual_of_input
level: 2
inputs:
  - {name: x, shape: [n, n]}
  - {name: w, shape: [n, n], role: parameter, scale: inv_sqrt_fan_in}
outputs:
  - {name: y, shape: [n, n]}
graph:
  - {name: product, op: matmul, inputs: [x, w], output: t}
  - {name: residual, op: add, inputs: [t, x], output: y}
tolerance: {atol: 1.0e-2, rtol: 1.0e-2, rel_l2: 2.0e-3}
shapes:
  default: {n: 8}
  small: {n: 8}
)");
  EXPECT_FALSE(kbv::bf16_operand_inputs(residual).has_value()) << "x is read in full precision by the residual too";
}

TEST(RoundToBf16, KeepsEightSignificantBitsToNearestEven) {
  EXPECT_EQ(kbv::round_to_bf16(1.0f), 1.0f);
  EXPECT_EQ(kbv::round_to_bf16(1.0f + std::ldexp(1.0f, -8)), 1.0f) << "a tie goes to the even neighbour";
  EXPECT_EQ(kbv::round_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)), 1.0f + std::ldexp(1.0f, -6)) << "a tie goes to the even neighbour";
  EXPECT_EQ(kbv::round_to_bf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 1.0f + std::ldexp(1.0f, -7));
  EXPECT_EQ(kbv::round_to_bf16(-3.0f), -3.0f);
  EXPECT_TRUE(std::isnan(kbv::round_to_bf16(std::numeric_limits<float>::quiet_NaN())));
  for (double v : {0.1, -2.7182818, 1e-20, 3e30}) EXPECT_EQ(kbv::round_to_bf16(static_cast<float>(v)), rounded_mantissa(v, 7)) << v;
}

TEST(OperandRoundingDistances, RatioAndVerdict) {
  kbv::OperandRoundingDistances distances;
  EXPECT_TRUE(std::isinf(distances.ratio())) << "an output equal to the reference";
  EXPECT_FALSE(distances.explained_by_rounding());
  distances.to_reference_sq = 4;
  distances.to_rounded_sq = 0.81;
  EXPECT_DOUBLE_EQ(distances.ratio(), 0.45);
  EXPECT_TRUE(distances.explained_by_rounding());
  EXPECT_NE(distances.summary().find("bfloat16-rounded operands"), std::string::npos);
  distances.to_rounded_sq = 1.0;
  EXPECT_FALSE(distances.explained_by_rounding()) << "0.5: not more than twice as near";
}

// KernelBench L2 #76's form, relu(x·wᵀ + b), on the normal family through the host data plane. A
// bf16 GEMM stays under the tolerance's 2e-3 against ‖y‖ (the relu zeroes half the outputs and
// their error, the bias adds to ‖y‖ only) and is caught by the precision check; TF32 and fp32
// outputs of the same inputs pass it with their margins (≈ 8 for TF32: bf16's rounding over TF32's).
TEST(PrecisionCheck, CatchesABf16GemmAfterABiasAndAReluThatTheToleranceLetsPass) {
  const kbv::ResolvedProblem problem = inline_problem(R"(name: gemm_add_relu
level: 2
inputs:
  - {name: x, shape: [rows, k]}
  - {name: w, shape: [cols, k], role: parameter, scale: inv_sqrt_fan_in}
  - {name: bias, shape: [cols], role: parameter, scale: 1}
outputs:
  - {name: y, shape: [rows, cols]}
graph:
  - {name: linear, op: linear, inputs: [x, w], output: t0}
  - {name: add, op: add, inputs: [t0, bias], output: t1}
  - {name: relu, op: relu, inputs: [t1], output: y}
tolerance: {atol: 1.0e-2, rtol: 1.0e-2, rel_l2: 2.0e-3}
shapes:
  default: {rows: 96, k: 256, cols: 64}
  small: {rows: 96, k: 256, cols: 64}
)");
  kbv::test::MappedHostPlane mapped(problem, kbv::inputs::Family::normal, 9, 3);
  const float *x = mapped.input(0), *w = mapped.input(1), *bias = mapped.input(2);
  const int64_t rows = 96, k = 256, cols = 64;
  const auto computed_with = [&](int mantissa_bits) {
    std::vector<float> y(static_cast<size_t>(rows * cols));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        float sum = 0;  // fp32 accumulation, as a kernel's
        for (int64_t p = 0; p < k; ++p)
          sum += static_cast<float>(rounded_mantissa(x[r * k + p], mantissa_bits) * rounded_mantissa(w[c * k + p], mantissa_bits));
        y[static_cast<size_t>(r * cols + c)] = std::max(sum + bias[c], 0.0f);
      }
    return y;
  };
  const auto judge = [&](const std::vector<float>& y) {
    std::memcpy(mapped.output(), y.data(), y.size() * sizeof(float));
    const kbv::CompareResult comparison = mapped.plane().check_outputs(0);
    const auto distances = mapped.plane().bf16_operand_distances(0);
    EXPECT_TRUE(distances.has_value());
    return std::pair{comparison, distances.value_or(kbv::OperandRoundingDistances{})};
  };

  const auto [bf16_comparison, bf16] = judge(computed_with(7));
  EXPECT_TRUE(bf16_comparison.passed) << "the gap the precision check closes: " << bf16_comparison.summary();
  EXPECT_GT(bf16_comparison.rel_l2_error, 1e-3);
  EXPECT_TRUE(bf16.explained_by_rounding()) << bf16.ratio();
  EXPECT_LT(bf16.ratio(), 0.05) << "fp32 accumulation beside bf16's rounding";

  const auto [tf32_comparison, tf32] = judge(computed_with(10));
  EXPECT_TRUE(tf32_comparison.passed) << tf32_comparison.summary();
  EXPECT_GT(tf32.ratio(), 4.0) << "≈ 8: bf16's rounding over TF32's";
  EXPECT_FALSE(tf32.explained_by_rounding());

  const auto [fp32_comparison, fp32] = judge(computed_with(23));
  EXPECT_TRUE(fp32_comparison.passed) << fp32_comparison.summary();
  EXPECT_GT(fp32.ratio(), 100.0);
}

// Which bundled problems the check covers: every level-1 product (a single product of inputs) but
// the depthwise-separable convolution (two chained convolutions), and the figure over all levels.
TEST(Bf16OperandInputs, CoverEveryLevelOneProductOfInputs) {
  const auto catalog = kbv::ProblemCatalog::load(KBV_PROBLEMS_DIR);
  int products = 0, checked = 0;
  for (const auto& name : catalog.names()) {
    const kbv::ResolvedProblem problem = kbv::resolve_problem(catalog.get(name), "default");
    if (std::none_of(problem.problem.graph.begin(), problem.problem.graph.end(), [](const kbv::Node& node) { return kbv::is_product_op(node.op); }))
      continue;
    ++products;
    const bool covered = kbv::bf16_operand_inputs(problem).has_value();
    checked += covered;
    if (problem.problem.level == 1 && name != "kb_l1_86_conv_depthwise_separable_2d") {
      EXPECT_TRUE(covered) << name;
    }
  }
  std::printf("[ figures  ] precision check: %d of %d bundled problems with a product\n", checked, products);
  EXPECT_GT(checked, 0);
}

}  // namespace
