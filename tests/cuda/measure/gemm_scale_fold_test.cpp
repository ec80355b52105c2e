// tests/cuda/measure/gemm_scale_fold_test.cpp — which scaling and ReLU tails the CUDA baseline folds
// into a linear layer's alpha and epilogue (baseline/gemm_scale_fold.hpp), and which it leaves
// alone (no GPU).
#include <gtest/gtest.h>

#include <set>

#include "measure/baseline/buffer_plan.hpp"
#include "measure/baseline/elementwise_groups.hpp"
#include "measure/baseline/gemm_scale_fold.hpp"
#include "graph_problem.hpp"

namespace kbv::cuda {
namespace {

struct TestNode {
  std::string op;
  std::vector<std::string> inputs;
  std::string output;
  Attrs attrs = {};
};

// x [8, 16], weight [4, 16], bias [4]; every node's output is [8, 4].
ResolvedProblem graph(const std::vector<TestNode>& nodes, const std::vector<std::string>& outputs) {
  std::vector<test::GraphNode> shaped;
  for (const TestNode& node : nodes) shaped.push_back({node.op, node.inputs, node.output, {8, 4}, node.attrs});
  return test::graph_problem({{"x", {8, 16}}, {"weight", {4, 16}}, {"bias", {4}}, {"r", {8, 4}}}, shaped, outputs);
}

bool fusable(std::string_view op) { return std::set<std::string, std::less<>>{"scale", "add", "sub", "relu"}.count(op) > 0; }

std::vector<BaselineUnit> folded(const ResolvedProblem& r) { return fold_gemm_scales(r, plan_units(r, fusable)); }

const TestNode kLinear = {"linear", {"x", "weight", "bias"}, "t0"};

// matmul_scale_residual (KernelBench L2 #40): z = linear(x); y = z·0.5 + z = 1.5·z, one cuBLASLt call.
TEST(GemmScaleFold, MatmulScaleResidualIsOneGemmWithAlphaOneAndAHalf) {
  const ResolvedProblem r = graph({kLinear, {"scale", {"t0"}, "t1", {{"value", 0.5}}}, {"add", {"t1", "t0"}, "y"}}, {"y"});
  const auto units = folded(r);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].nodes, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(units[0].inputs, (std::vector<std::string>{"x", "weight", "bias"}));
  EXPECT_EQ(units[0].output, "y");
  ASSERT_TRUE(units[0].gemm_scale);
  EXPECT_DOUBLE_EQ(*units[0].gemm_scale, 1.5);
  EXPECT_FALSE(units[0].fused()) << "a GEMM, not an elementwise kernel";
  EXPECT_TRUE(plan_buffers(r, units).slot_bytes.empty()) << "no intermediate is written at all";
}

TEST(GemmScaleFold, SubtractionsAndAChainOfScalesMultiply) {
  const ResolvedProblem r = graph({kLinear, {"scale", {"t0"}, "t1", {{"value", 3.0}}}, {"sub", {"t1", "t0"}, "t2"}, {"scale", {"t2"}, "y", {{"value", 0.25}}}},
                                  {"y"});
  const auto units = folded(r);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_DOUBLE_EQ(units[0].gemm_scale.value_or(0), 0.5) << "(3 - 1) * 0.25";
}

TEST(GemmScaleFold, AnythingButAScalarMultipleStaysAnElementwisePass) {
  // A nonlinear op, another tensor, a zero multiple, a value used elsewhere, a problem output.
  for (const auto& nodes : std::vector<std::vector<TestNode>>{
           {kLinear, {"sigmoid", {"t0"}, "y"}},
           {kLinear, {"add", {"t0", "r"}, "y"}},
           {kLinear, {"sub", {"t0", "t0"}, "y"}},
       }) {
    const auto units = folded(graph(nodes, {"y"}));
    ASSERT_EQ(units.size(), 2u) << nodes.back().op;
    EXPECT_FALSE(units[0].gemm_scale);
  }
  const auto escapes = folded(graph({kLinear, {"scale", {"t0"}, "y", {{"value", 2.0}}}}, {"y", "t0"}));
  EXPECT_EQ(escapes.size(), 2u) << "t0 is a problem output: it must be written";
  const auto matmul = folded(graph({{"matmul", {"x", "x"}, "t0"}, {"scale", {"t0"}, "y", {{"value", 2.0}}}}, {"y"}));
  EXPECT_EQ(matmul.size(), 2u) << "only linear's step takes a folded scale";
}

// An MLP's hidden layer (KernelBench L3 #1–#3): linear → relu is one cuBLASLt call, RELU_BIAS.
TEST(GemmScaleFold, AReluAfterALinearIsItsEpilogue) {
  const ResolvedProblem r = graph({kLinear, {"relu", {"t0"}, "y"}}, {"y"});
  const auto units = folded(r);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].nodes, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(units[0].output, "y");
  EXPECT_TRUE(units[0].gemm_relu);
  EXPECT_DOUBLE_EQ(units[0].gemm_scale.value_or(0), 1.0);
  EXPECT_FALSE(units[0].fused());
  EXPECT_TRUE(plan_buffers(r, units).slot_bytes.empty());
}

// Positive scalings commute with the ReLU: relu(z)/2 (KernelBench L2 #63, gemm_relu_divide) and
// relu(3z) are alpha·relu(z); relu(z) + relu(z) is 2·relu(z).
TEST(GemmScaleFold, PositiveScalingsOnEitherSideOfTheReluFoldIntoAlpha) {
  const auto after = folded(graph({kLinear, {"relu", {"t0"}, "t1"}, {"scale", {"t1"}, "y", {{"value", 0.5}}}}, {"y"}));
  ASSERT_EQ(after.size(), 1u);
  EXPECT_TRUE(after[0].gemm_relu);
  EXPECT_DOUBLE_EQ(after[0].gemm_scale.value_or(0), 0.5);
  const auto before = folded(graph({kLinear, {"scale", {"t0"}, "t1", {{"value", 3.0}}}, {"relu", {"t1"}, "y"}}, {"y"}));
  ASSERT_EQ(before.size(), 1u);
  EXPECT_TRUE(before[0].gemm_relu);
  EXPECT_DOUBLE_EQ(before[0].gemm_scale.value_or(0), 3.0);
  const auto doubled = folded(graph({kLinear, {"relu", {"t0"}, "t1"}, {"add", {"t1", "t1"}, "y"}}, {"y"}));
  ASSERT_EQ(doubled.size(), 1u);
  EXPECT_DOUBLE_EQ(doubled[0].gemm_scale.value_or(0), 2.0);
}

// What no ReLU epilogue computes: relu(−z) (the ReLU of a negative multiple), −relu(z), relu(z) + z,
// relu(relu(z) − z) (a ReLU'd value mixed with a plain one). Each stays a GEMM and a pass.
TEST(GemmScaleFold, ReluTailsNoEpilogueComputesStayPasses) {
  for (const auto& nodes : std::vector<std::vector<TestNode>>{
           {kLinear, {"scale", {"t0"}, "t1", {{"value", -1.0}}}, {"relu", {"t1"}, "y"}},
           {kLinear, {"relu", {"t0"}, "t1"}, {"scale", {"t1"}, "y", {{"value", -2.0}}}},
           {kLinear, {"relu", {"t0"}, "t1"}, {"add", {"t1", "t0"}, "y"}},
       }) {
    const auto units = folded(graph(nodes, {"y"}));
    EXPECT_FALSE(units[0].gemm_relu) << nodes.size() << " nodes ending in " << nodes.back().op;
    EXPECT_FALSE(units[0].gemm_scale) << nodes.back().op;
  }
  const auto matmul = folded(graph({{"matmul", {"x", "x"}, "t0"}, {"relu", {"t0"}, "y"}}, {"y"}));
  EXPECT_EQ(matmul.size(), 2u) << "only linear's step takes a folded ReLU";
  const auto kept = folded(graph({kLinear, {"relu", {"t0"}, "y"}}, {"y", "t0"}));
  EXPECT_EQ(kept.size(), 2u) << "t0 is a problem output: it must be written before the ReLU";
}

}  // namespace
}  // namespace kbv::cuda
