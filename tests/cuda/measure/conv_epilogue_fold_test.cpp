// tests/cuda/measure/conv_epilogue_fold_test.cpp — which elementwise chains the CUDA baseline
// folds into the 2-D convolution before them (baseline/conv_epilogue_fold.hpp), which it leaves
// as their own pass, and which shipped problems fold (no GPU).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <set>

#include "graph_problem.hpp"
#include "measure/baseline/buffer_plan.hpp"
#include "measure/baseline/conv_epilogue_fold.hpp"
#include "measure/baseline/elementwise_groups.hpp"
#include "ops/common/baseline/fused_elementwise.hpp"
#include "spec/catalog.hpp"

namespace kbv::cuda {
namespace {

using TestNode = test::GraphNode;

const Shape kOut = {2, 8, 10, 10};

// x [2, 4, 12, 12], weight [8, 4, 3, 3], conv_bias [8]; per-channel tensors of several
// spellings, and a whole-output tensor r.
ResolvedProblem graph(const std::vector<TestNode>& nodes, const std::vector<std::string>& outputs) {
  return test::graph_problem({{"x", {2, 4, 12, 12}},
                              {"weight", {8, 4, 3, 3}},
                              {"conv_bias", {8}},
                              {"bias", {8, 1, 1}},
                              {"scale", {1, 8, 1, 1}},
                              {"one", {1}},
                              {"row", {10}},
                              {"r", kOut}},
                             nodes, outputs);
}

const std::set<std::string> kElementwise = {"relu", "add", "mul", "sigmoid", "tanh"};
bool fusable(std::string_view op) { return kElementwise.count(std::string(op)) > 0; }

std::vector<BaselineUnit> folded(const ResolvedProblem& r) { return fold_conv_epilogues(r, plan_units(r, fusable), fusable); }

const TestNode kConv = {"conv2d", {"x", "weight", "conv_bias"}, "t0", kOut};

// conv2d_relu_biasadd (KernelBench L2 #1): relu(conv(x)) + bias is one step, no intermediate.
TEST(ConvEpilogueFold, ConvReluBiasAddIsOneStepWithNoIntermediate) {
  const ResolvedProblem r = graph({kConv, {"relu", {"t0"}, "t1", kOut}, {"add", {"t1", "bias"}, "y", kOut}}, {"y"});
  const auto units = folded(r);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].nodes, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(units[0].inputs, (std::vector<std::string>{"x", "weight", "conv_bias", "bias"}));
  EXPECT_EQ(units[0].output, "y");
  EXPECT_TRUE(units[0].conv_epilogue);
  EXPECT_FALSE(units[0].fused()) << "a convolution, not an elementwise kernel";
  EXPECT_TRUE(plan_buffers(r, units).slot_bytes.empty()) << "t0 and t1 are never written as tensors";
}

TEST(ConvEpilogueFold, OperandsOfEveryPerChannelSpellingAndOneForAllFold) {
  const ResolvedProblem r = graph({kConv,
                                   {"mul", {"t0", "scale"}, "t1", kOut},
                                   {"add", {"t1", "bias"}, "t2", kOut},
                                   {"mul", {"one", "t2"}, "t3", kOut},
                                   {"sigmoid", {"t3"}, "y", kOut}},
                                  {"y"});
  const auto units = folded(r);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_TRUE(units[0].conv_epilogue);
  EXPECT_EQ(units[0].inputs, (std::vector<std::string>{"x", "weight", "conv_bias", "scale", "bias", "one"}));
}

TEST(ConvEpilogueFold, AChainReadingTheConvolutionTwiceInItsFirstNodeFolds) {
  const ResolvedProblem r = graph({kConv, {"mul", {"t0", "t0"}, "y", kOut}}, {"y"});
  const auto units = folded(r);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].inputs, (std::vector<std::string>{"x", "weight", "conv_bias"}));
}

TEST(ConvEpilogueFold, WhatTheEpilogueCannotRunStaysItsOwnPass) {
  const Shape small = {2, 8, 10, 1};
  const std::vector<std::pair<std::string, std::vector<TestNode>>> cases = {
      {"an operand varying over the image", {kConv, {"add", {"t0", "r"}, "y", kOut}}},
      {"an operand varying along the width", {kConv, {"add", {"t0", "row"}, "y", kOut}}},
      {"the convolution's output read again later in the chain", {kConv, {"relu", {"t0"}, "t1", kOut}, {"add", {"t1", "t0"}, "y", kOut}}},
      {"a node after the chain reading the convolution's output",
       {kConv, {"relu", {"t0"}, "t1", kOut}, {"matmul", {"t0", "t1"}, "y", kOut}}},
      {"the chain's output of another shape", {kConv, {"add", {"t0", "bias"}, "y", {3, 2, 8, 10, 10}}}},
      {"a chain not starting from the convolution", {kConv, {"relu", {"r"}, "t1", kOut}, {"add", {"t1", "t0"}, "y", kOut}}},
      {"a library op after the convolution", {kConv, {"matmul", {"t0", "t0"}, "y", kOut}}},
  };
  for (const auto& [why, nodes] : cases) {
    SCOPED_TRACE(why);
    const ResolvedProblem r = graph(nodes, {"y"});
    for (const BaselineUnit& unit : folded(r)) EXPECT_FALSE(unit.conv_epilogue);
  }
  // The convolution's output is itself a problem output.
  const ResolvedProblem both = graph({kConv, {"relu", {"t0"}, "y", kOut}}, {"t0", "y"});
  for (const BaselineUnit& unit : folded(both)) EXPECT_FALSE(unit.conv_epilogue);
  // Other convolutions, and no convolution: nothing folds.
  TestNode conv1d = kConv;
  conv1d.op = "conv1d";
  for (const BaselineUnit& unit : folded(graph({conv1d, {"relu", {"t0"}, "y", kOut}}, {"y"}))) EXPECT_FALSE(unit.conv_epilogue);
}

TEST(ConvEpilogueFold, UnfusedPlansAreLeftAsTheyAre) {
  const ResolvedProblem r = graph({kConv, {"relu", {"t0"}, "t1", kOut}, {"add", {"t1", "bias"}, "y", kOut}}, {"y"});
  const auto units = fold_conv_epilogues(r, plan_units(r, fusable, false), [](std::string_view) { return false; });
  EXPECT_EQ(units.size(), 3u);
}

// The shipped catalog with the real list of fusable ops: conv2d_relu_biasadd folds, and every
// fold is of a conv2d followed only by fusable ops.
TEST(ConvEpilogueFold, ShippedConvolutionProblemsFold) {
  const std::filesystem::path directory = default_problems_directory();
  if (!std::filesystem::is_directory(directory)) GTEST_SKIP() << "no problems directory at " << directory << " (set KBV_PROBLEMS_DIR)";
  const ProblemCatalog catalog = ProblemCatalog::load(directory);
  std::set<std::string> folding;
  for (const std::string& name : catalog.names()) {
    const ResolvedProblem r = resolve_problem(catalog.get(name), "default");  // every problem has it; folding does not depend on sizes
    for (const BaselineUnit& unit : fold_conv_epilogues(r, plan_units(r, ops::baseline::fusable_elementwise), ops::baseline::fusable_elementwise)) {
      if (!unit.conv_epilogue) continue;
      folding.insert(name);
      EXPECT_EQ(r.problem.graph[unit.nodes.front()].op, "conv2d") << name;
      for (size_t m = 1; m < unit.nodes.size(); ++m) EXPECT_TRUE(ops::baseline::fusable_elementwise(r.problem.graph[unit.nodes[m]].op)) << name;
    }
  }
  EXPECT_TRUE(folding.count("conv2d_relu_biasadd"));
  std::string listed;
  for (const std::string& name : folding) listed += " " + name;
  std::printf("problems whose convolution takes an elementwise epilogue (%zu):%s\n", folding.size(), listed.c_str());
}

}  // namespace
}  // namespace kbv::cuda
