// baseline/conv_epilogue_fold.cpp — elementwise chains folded into the 2-D convolution before
// them (conv_epilogue_fold.hpp).
#include "measure/baseline/conv_epilogue_fold.hpp"

#include <algorithm>
#include <string>

namespace kbv::cuda {

bool one_value_per_channel(const Shape& shape, const Shape& out) {
  if (shape.size() > out.size()) return false;
  const size_t lead = out.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    const size_t axis = lead + d;
    if (shape[d] == 1) continue;
    if (axis != kConvChannelAxis || shape[d] != out[axis]) return false;
  }
  return true;
}

std::vector<BaselineUnit> fold_conv_epilogues(const ResolvedProblem& problem, std::vector<BaselineUnit> units,
                                              const std::function<bool(std::string_view op)>& fusable) {
  const Problem& spec = problem.problem;
  const auto reads = [&](size_t n, const std::string& value) {
    const auto& inputs = spec.graph[n].inputs;
    return std::find(inputs.begin(), inputs.end(), value) != inputs.end();
  };
  const auto foldable = [&](const BaselineUnit& conv, const BaselineUnit& tail) {
    const std::string& value = conv.output;
    const Shape& out = problem.tensor_shapes.at(value);
    if (out.size() != kConvChannelAxis + 3 || leaves_unit(spec, value, tail) || problem.tensor_shapes.at(tail.output) != out) return false;
    if (!std::all_of(tail.nodes.begin(), tail.nodes.end(), [&](size_t n) { return fusable(spec.graph[n].op); })) return false;
    if (!reads(tail.nodes.front(), value)) return false;
    for (size_t m = 1; m < tail.nodes.size(); ++m)
      if (reads(tail.nodes[m], value)) return false;
    return std::all_of(tail.inputs.begin(), tail.inputs.end(),
                       [&](const std::string& name) { return name == value || one_value_per_channel(problem.tensor_shapes.at(name), out); });
  };
  return fold_into_previous(std::move(units), [&](BaselineUnit& unit, const BaselineUnit& tail) {
    const bool conv2d = unit.nodes.size() == 1 && !unit.gemm_scale && !unit.conv_epilogue && spec.graph[unit.nodes.front()].op == "conv2d";
    if (!conv2d || !foldable(unit, tail)) return false;
    unit.nodes.insert(unit.nodes.end(), tail.nodes.begin(), tail.nodes.end());
    for (const std::string& name : tail.inputs)
      if (name != unit.output) unit.inputs.push_back(name);
    unit.output = tail.output;
    unit.conv_epilogue = true;
    return true;
  });
}

}  // namespace kbv::cuda
