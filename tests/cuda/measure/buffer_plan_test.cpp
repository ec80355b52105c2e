// tests/cuda/measure/buffer_plan_test.cpp — intermediate slots are reused once dead, never
// while read, and bad graphs are refused (no GPU).
#include <gtest/gtest.h>

#include "measure/baseline/buffer_plan.hpp"

namespace kbv::cuda {
namespace {

// x → n0 → t0 → n1 → t1 → … following `edges`: each node {inputs…} → output.
ResolvedProblem chain(const std::vector<std::pair<std::vector<std::string>, std::string>>& nodes,
                      const std::string& output, int64_t elements = 1000) {
  ResolvedProblem r;
  r.problem.name = "test";
  TensorDecl x;
  x.name = "x";
  r.problem.inputs.push_back(x);
  r.tensor_shapes["x"] = {elements};
  for (size_t i = 0; i < nodes.size(); ++i) {
    Node n;
    n.name = "n" + std::to_string(i);
    n.op = "relu";
    n.inputs = nodes[i].first;
    n.output = nodes[i].second;
    r.problem.graph.push_back(n);
    r.tensor_shapes[n.output] = {elements};
  }
  TensorDecl y;
  y.name = output;
  r.problem.outputs.push_back(y);
  return r;
}

TEST(BufferPlan, ChainReusesTheSlotFreedTwoNodesBack) {
  const BufferPlan plan =
      plan_buffers(chain({{{"x"}, "t0"}, {{"t0"}, "t1"}, {{"t1"}, "t2"}, {{"t2"}, "y"}}, "y"));
  ASSERT_EQ(plan.slot_bytes.size(), 2u);
  EXPECT_EQ(plan.tensors.at("t0").index, plan.tensors.at("t2").index);
  EXPECT_NE(plan.tensors.at("t0").index, plan.tensors.at("t1").index);
  EXPECT_EQ(plan.tensors.at("y").kind, TensorLocation::Kind::output);
  EXPECT_EQ(plan.tensors.at("x").kind, TensorLocation::Kind::input);
  // 4000 bytes round up to 4096 (512-byte allocator blocks).
  EXPECT_EQ(plan.slot_bytes[0], 4096u);
  EXPECT_EQ(plan.intermediate_bytes(), 8192u);
}

TEST(BufferPlan, TensorReadLaterStaysAlive) {
  // t0 is read by n1 and again by n3, so t2 cannot take its slot.
  const BufferPlan plan = plan_buffers(
      chain({{{"x"}, "t0"}, {{"t0"}, "t1"}, {{"t1"}, "t2"}, {{"t2", "t0"}, "y"}}, "y"));
  EXPECT_EQ(plan.slot_bytes.size(), 3u);
}

TEST(BufferPlan, RefusesOutputNoNodeWrites) {
  EXPECT_THROW(plan_buffers(chain({{{"x"}, "t0"}}, "z")), std::invalid_argument);
}

TEST(BufferPlan, RefusesTensorWrittenTwice) {
  EXPECT_THROW(plan_buffers(chain({{{"x"}, "t0"}, {{"x"}, "t0"}, {{"t0"}, "y"}}, "y")),
               std::invalid_argument);
}

}  // namespace
}  // namespace kbv::cuda
