// reference_buffers_test.cpp — the fp64 reference graph's buffer plan (graph/in_place.hpp): an
// elementwise op writes over the intermediate it reads last, a chain ending in an output lives in
// the output's slot, and nothing is overwritten that a later node reads, that is an output, a
// problem input, or a broadcast operand. The host reference follows the plan and still computes
// what the graph says; the device executor follows it too (cuda/data/reference_graph.cpp; GPU
// tests compare its results with the host reference).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <vector>

#include "graph/error_scale_graph.hpp"
#include "graph/in_place.hpp"
#include "graph/run_graph.hpp"
#include "spec/problem.hpp"
#include "unit_test_support.hpp"

namespace {

using kbv::test::inline_problem;

kbv::ResolvedProblem bundled(const char* file, const char* shape_set) {
  return kbv::resolve_problem(kbv::load_problem_file(std::filesystem::path(KBV_PROBLEMS_DIR) / file), shape_set);
}

TEST(ReferenceBuffers, ConvReluBiasChainIsWrittenInTheOutputsSlot) {
  // conv → t0 → relu → t1 → add(t1, bias[C,1,1]) → y: relu over t0, the add over t1 (the bias is
  // broadcast, t1 has y's shape), so the convolution writes straight into y.
  const kbv::ResolvedProblem problem = bundled("conv2d_relu_biasadd.yaml", "small");
  const kbv::ReferenceBuffers plan = kbv::plan_reference_buffers(problem);
  const std::string y = problem.problem.outputs[0].name;
  for (const kbv::Node& node : problem.problem.graph) EXPECT_EQ(plan.home.at(node.output), y) << node.output;
  EXPECT_TRUE(plan.last_use.empty());
  EXPECT_DOUBLE_EQ(kbv::peak_intermediates(problem, kbv::plan_reference_buffers(problem)), 0);
}

TEST(ReferenceBuffers, ErrorScaleSqrtWritesOverTheConvolutionOfSquares) {
  // conv2d's error scale: x² and w² (products of problem inputs, own buffers), their convolution,
  // then sqrt into S: the convolution is written into S's slot, so only the squares take room.
  const kbv::ResolvedProblem problem = bundled("conv2d.yaml", "default");
  const auto scale = kbv::error_scale_graph(problem);
  ASSERT_TRUE(scale.has_value());
  const kbv::ResolvedProblem& graph = scale->problem;
  const kbv::ReferenceBuffers plan = kbv::plan_reference_buffers(graph);
  const std::string s = graph.problem.outputs[0].name;
  ASSERT_EQ(graph.problem.graph.back().op, "sqrt");
  const std::string convolved = graph.problem.graph.back().inputs[0];
  EXPECT_EQ(plan.home.at(convolved), s);
  const double x = static_cast<double>(kbv::numel(problem.input_shapes[0]));
  const double w = static_cast<double>(kbv::numel(problem.input_shapes[1]));
  EXPECT_DOUBLE_EQ(kbv::peak_intermediates(graph, kbv::plan_reference_buffers(graph)), x + w);
}

// Every rule in one graph: t0 is read by relu and again by `again`, which then writes over it;
// `wide` writes over t2 beside a broadcast row; y and z read an output and an input; an
// intermediate chain (tanh → scale) ends in a reduction.
constexpr const char* kKeepsSpec = R"(name: keeps
level: 2
inputs:
  - {name: x, shape: [rows, cols]}
  - {name: row, shape: [1, cols]}
outputs:
  - {name: kept, shape: [rows, cols]}
  - {name: y, shape: [rows, cols]}
  - {name: z, shape: [rows, cols]}
  - {name: total, shape: [rows]}
graph:
  - {name: e, op: exp, inputs: [x], output: t0}
  - {name: r, op: relu, inputs: [t0], output: t1}
  - {name: again, op: add, inputs: [t0, t1], output: t2}
  - {name: small, op: mul, inputs: [row, row], output: t3}
  - {name: wide, op: add, inputs: [t3, t2], output: kept}
  - {name: from_output, op: relu, inputs: [kept], output: y}
  - {name: from_input, op: relu, inputs: [x], output: z}
  - {name: squash, op: tanh, inputs: [x], output: u0}
  - {name: double, op: scale, inputs: [u0], output: u1, attrs: {value: 2.0}}
  - {name: reduce, op: sum, inputs: [u1], output: total, attrs: {axis: 1, keepdim: 0}}
tolerance: {atol: 1.0e-4, rtol: 1.0e-4}
shapes:
  default: {rows: 3, cols: 4}
  small: {rows: 3, cols: 4}
)";

TEST(ReferenceBuffers, NothingIsOverwrittenThatIsReadLaterOrIsAnOutputOrAnInput) {
  const kbv::ResolvedProblem problem = inline_problem(kKeepsSpec);
  const kbv::ReferenceBuffers plan = kbv::plan_reference_buffers(problem);
  EXPECT_EQ(plan.home.at("t1"), "t1");      // not over t0, which `again` reads after it
  // `again` writes over t0 (it reads it last), `wide` over t2, so the chain t0 → t2 → kept lives
  // in kept's slot from exp on.
  EXPECT_EQ(plan.home.at("t0"), "kept");
  EXPECT_EQ(plan.home.at("t2"), "kept");
  EXPECT_EQ(plan.home.at("kept"), "kept");
  EXPECT_EQ(plan.home.at("t3"), "t3");      // [1, cols]: broadcast into `wide`, never its buffer
  EXPECT_EQ(plan.home.at("y"), "y");        // `kept` is an output: its values stay
  EXPECT_EQ(plan.home.at("z"), "z");        // x is a problem input
  EXPECT_EQ(plan.home.at("u1"), "u0");      // an intermediate chain: one buffer
  EXPECT_EQ(plan.last_use.size(), 3u);      // the buffers of t1, t3 and u0
  EXPECT_EQ(plan.last_use.at("t1"), 2u);
  EXPECT_EQ(plan.last_use.at("t3"), 4u);
  EXPECT_EQ(plan.last_use.at("u0"), 9u);    // u1, in u0's buffer, is read by `reduce`
  EXPECT_DOUBLE_EQ(kbv::peak_intermediates(problem, kbv::plan_reference_buffers(problem)), 12);  // one at a time
}

TEST(ReferenceBuffers, TheHostReferenceComputesTheGraphUnderThePlan) {
  const kbv::ResolvedProblem problem = inline_problem(kKeepsSpec);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  std::vector<double> x(12), row(4);
  for (double& v : x) v = normal(rng);
  for (double& v : row) v = normal(rng);
  const auto outputs = kbv::run_reference_f64(problem, {x.data(), row.data()});
  ASSERT_EQ(outputs.size(), 4u);
  for (size_t r = 0; r < 3; ++r) {
    double total = 0;
    for (size_t c = 0; c < 4; ++c) {
      const size_t i = r * 4 + c;
      const double e = std::exp(x[i]);
      const double kept = row[c] * row[c] + (e + std::max(e, 0.0));
      EXPECT_NEAR(outputs[0].data[i], kept, 1e-12);
      EXPECT_NEAR(outputs[1].data[i], std::max(kept, 0.0), 1e-12);
      EXPECT_NEAR(outputs[2].data[i], std::max(x[i], 0.0), 1e-12);
      total += 2 * std::tanh(x[i]);
    }
    EXPECT_NEAR(outputs[3].data[r], total, 1e-12);
  }
}

}  // namespace
