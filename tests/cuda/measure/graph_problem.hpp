// tests/cuda/measure/graph_problem.hpp — a small resolved problem built from a node list, for the
// host tests of how the CUDA baseline plans a graph (elementwise groups, the GEMM scale fold).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "spec/problem.hpp"

namespace kbv::test {

struct GraphNode {
  std::string op;
  std::vector<std::string> inputs;
  std::string output;
  Shape shape;  // the output's
  Attrs attrs = {};
};

// Inputs in the order given, nodes named n0, n1, … in graph order, and the outputs named.
inline ResolvedProblem graph_problem(const std::vector<std::pair<std::string, Shape>>& inputs, const std::vector<GraphNode>& nodes,
                                     const std::vector<std::string>& outputs) {
  ResolvedProblem r;
  r.problem.name = "test";
  for (const auto& [name, shape] : inputs) {
    TensorDecl input;
    input.name = name;
    r.problem.inputs.push_back(input);
    r.tensor_shapes[name] = shape;
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    Node n;
    n.name = "n" + std::to_string(i);
    n.op = nodes[i].op;
    n.inputs = nodes[i].inputs;
    n.output = nodes[i].output;
    n.attrs = nodes[i].attrs;
    r.problem.graph.push_back(n);
    r.tensor_shapes[n.output] = nodes[i].shape;
  }
  for (const std::string& name : outputs) {
    TensorDecl output;
    output.name = name;
    r.problem.outputs.push_back(output);
  }
  return r;
}

}  // namespace kbv::test
