// tests/cuda/measure/elementwise_groups_test.cpp — which nodes the CUDA baseline fuses into one
// elementwise kernel, and the buffer plan over the fused units (no GPU).
#include <gtest/gtest.h>

#include <set>

#include "measure/baseline/buffer_plan.hpp"
#include "measure/baseline/elementwise_groups.hpp"
#include "graph_problem.hpp"

namespace kbv::cuda {
namespace {

using TestNode = test::GraphNode;

// Inputs x [8, 4] and bias [4]; every node's output has the shape given.
ResolvedProblem graph(const std::vector<TestNode>& nodes, const std::vector<std::string>& outputs) {
  return test::graph_problem({{"x", {8, 4}}, {"bias", {4}}}, nodes, outputs);
}

const std::set<std::string> kElementwise = {"relu", "add", "mul", "scale", "tanh"};
bool fusable(std::string_view op) { return kElementwise.count(std::string(op)) > 0; }

std::vector<std::vector<size_t>> node_lists(const std::vector<BaselineUnit>& units) {
  std::vector<std::vector<size_t>> lists;
  for (const BaselineUnit& unit : units) lists.push_back(unit.nodes);
  return lists;
}

TEST(ElementwiseGroups, ConvThenReluThenBiasIsTwoLaunches) {
  // conv2d_relu_biasadd's shape: a library node, then relu and a broadcast add fused.
  const ResolvedProblem r = graph({{"matmul", {"x", "x"}, "t0", {8, 4}}, {"relu", {"t0"}, "t1", {8, 4}}, {"add", {"t1", "bias"}, "y", {8, 4}}}, {"y"});
  const auto units = plan_units(r, fusable);
  ASSERT_EQ(node_lists(units), (std::vector<std::vector<size_t>>{{0}, {1, 2}}));
  EXPECT_EQ(units[0].inputs, (std::vector<std::string>{"x", "x"}));  // a single node keeps its operand list
  EXPECT_EQ(units[1].inputs, (std::vector<std::string>{"t0", "bias"}));
  EXPECT_EQ(units[1].output, "y");
  EXPECT_TRUE(units[1].fused());
  // t1 lives in registers: only t0 needs a slot.
  const BufferPlan plan = plan_buffers(r, units);
  EXPECT_EQ(plan.slot_bytes.size(), 1u);
  EXPECT_FALSE(plan.tensors.count("t1"));
}

TEST(ElementwiseGroups, ResidualReadsTheChainInputOnce) {
  // matmul_scale_residual: y = scale(t0) + t0.
  const ResolvedProblem r = graph({{"matmul", {"x", "x"}, "t0", {8, 4}}, {"scale", {"t0"}, "t1", {8, 4}}, {"add", {"t1", "t0"}, "y", {8, 4}}}, {"y"});
  const auto units = plan_units(r, fusable);
  ASSERT_EQ(node_lists(units), (std::vector<std::vector<size_t>>{{0}, {1, 2}}));
  EXPECT_EQ(units[1].inputs, (std::vector<std::string>{"t0"}));
}

TEST(ElementwiseGroups, AnEarlierValueOfTheChainLeavesItAsATensor) {
  // y = tanh(scale(x)) · scale(x): n2 reads t0, not the previous value, so the chain splits after
  // t0 (the kernel keeps only the last value) and tanh and mul stay fused, reading t0.
  const ResolvedProblem r = graph({{"scale", {"x"}, "t0", {8, 4}}, {"tanh", {"t0"}, "t1", {8, 4}}, {"mul", {"t1", "t0"}, "y", {8, 4}}}, {"y"});
  const auto units = plan_units(r, fusable);
  EXPECT_EQ(node_lists(units), (std::vector<std::vector<size_t>>{{0}, {1, 2}}));
  EXPECT_EQ(units[1].inputs, (std::vector<std::string>{"t0"}));
  EXPECT_EQ(plan_buffers(r, units).slot_bytes.size(), 1u);
}

TEST(ElementwiseGroups, AValueReadOutsideTheChainEndsIt) {
  // t1 is read by n3 (not elementwise), so the chain cannot swallow it.
  const ResolvedProblem r = graph({{"relu", {"x"}, "t0", {8, 4}}, {"tanh", {"t0"}, "t1", {8, 4}}, {"relu", {"t1"}, "t2", {8, 4}},
                                   {"matmul", {"t1", "t2"}, "y", {8, 4}}},
                                  {"y"});
  EXPECT_EQ(node_lists(plan_units(r, fusable)), (std::vector<std::vector<size_t>>{{0, 1}, {2}, {3}}));
}

TEST(ElementwiseGroups, AProblemOutputEndsTheChain) {
  const ResolvedProblem r = graph({{"relu", {"x"}, "t0", {8, 4}}, {"tanh", {"t0"}, "y", {8, 4}}, {"relu", {"y"}, "z", {8, 4}}}, {"y", "z"});
  EXPECT_EQ(node_lists(plan_units(r, fusable)), (std::vector<std::vector<size_t>>{{0, 1}, {2}}));
}

TEST(ElementwiseGroups, AChainValueNeverBroadcasts) {
  // bias [4] → relu → add to x [8, 4]: the add's output is larger than the chain's values.
  const ResolvedProblem r = graph({{"relu", {"bias"}, "t0", {4}}, {"add", {"t0", "x"}, "y", {8, 4}}}, {"y"});
  EXPECT_EQ(node_lists(plan_units(r, fusable)), (std::vector<std::vector<size_t>>{{0}, {1}}));
}

TEST(ElementwiseGroups, ANodeNotReadingThePreviousStartsANewChain) {
  const ResolvedProblem r = graph({{"relu", {"x"}, "t0", {8, 4}}, {"tanh", {"x"}, "t1", {8, 4}}, {"add", {"t0", "t1"}, "y", {8, 4}}}, {"y"});
  // n1 does not read t0; n2 reads t1 (n1's) and t0 from outside its chain.
  const auto units = plan_units(r, fusable);
  EXPECT_EQ(node_lists(units), (std::vector<std::vector<size_t>>{{0}, {1, 2}}));
  EXPECT_EQ(units[1].inputs, (std::vector<std::string>{"x", "t0"}));
}

TEST(ElementwiseGroups, LongChainsSplitAtTheKernelsLimit) {
  std::vector<TestNode> nodes;
  std::string previous = "x";
  for (size_t i = 0; i < kMaxFusedNodes + 3; ++i) {
    const std::string out = i + 1 == kMaxFusedNodes + 3 ? "y" : "t" + std::to_string(i);
    nodes.push_back({"relu", {previous}, out, {8, 4}});
    previous = out;
  }
  const auto units = plan_units(graph(nodes, {"y"}), fusable);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].nodes.size(), kMaxFusedNodes);
  EXPECT_EQ(units[1].nodes.size(), 3u);
}

TEST(ElementwiseGroups, WithoutFusionEveryNodeIsAUnit) {
  const ResolvedProblem r = graph({{"relu", {"x"}, "t0", {8, 4}}, {"add", {"t0", "bias"}, "y", {8, 4}}}, {"y"});
  EXPECT_EQ(node_lists(plan_units(r, fusable, false)), (std::vector<std::vector<size_t>>{{0}, {1}}));
  // Units of single nodes plan as plan_buffers(problem) does.
  EXPECT_EQ(plan_buffers(r, plan_units(r, fusable, false)).slot_bytes, plan_buffers(r).slot_bytes);
}

}  // namespace
}  // namespace kbv::cuda
