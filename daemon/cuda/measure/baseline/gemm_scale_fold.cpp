// baseline/gemm_scale_fold.cpp — scaling tails folded into a linear layer's alpha (gemm_scale_fold.hpp).
#include "measure/baseline/gemm_scale_fold.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace kbv::cuda {

std::optional<double> scalar_multiple_of(const Problem& problem, const BaselineUnit& unit, const std::string& input) {
  std::map<std::string, double> multiple = {{input, 1.0}};
  const auto of = [&](const std::string& name) -> std::optional<double> {
    const auto found = multiple.find(name);
    return found == multiple.end() ? std::nullopt : std::optional<double>(found->second);
  };
  for (const size_t n : unit.nodes) {
    const Node& node = problem.graph[n];
    std::optional<double> value;
    if (node.op == "scale" && node.inputs.size() == 1) {
      const auto factor = node.attrs.find("value");
      if (const auto x = of(node.inputs[0]); x && factor != node.attrs.end()) value = *x * factor->second;
    } else if ((node.op == "add" || node.op == "sub") && node.inputs.size() == 2) {
      const auto a = of(node.inputs[0]), b = of(node.inputs[1]);
      if (a && b) value = node.op == "add" ? *a + *b : *a - *b;
    }
    if (!value) return std::nullopt;
    multiple[node.output] = *value;
  }
  const std::optional<double> result = of(unit.output);
  if (!result || !std::isfinite(*result) || *result == 0) return std::nullopt;
  return result;
}

std::vector<BaselineUnit> fold_gemm_scales(const ResolvedProblem& problem, std::vector<BaselineUnit> units) {
  const Problem& spec = problem.problem;
  return fold_into_previous(std::move(units), [&](BaselineUnit& unit, const BaselineUnit& tail) {
    const bool linear = unit.nodes.size() == 1 && !unit.gemm_scale && spec.graph[unit.nodes.front()].op == "linear";
    const bool reads_only_it = tail.inputs.size() == 1 && tail.inputs.front() == unit.output;
    if (!linear || !reads_only_it || leaves_unit(spec, unit.output, tail)) return false;
    const auto scale = scalar_multiple_of(spec, tail, unit.output);
    if (!scale) return false;
    unit.nodes.insert(unit.nodes.end(), tail.nodes.begin(), tail.nodes.end());
    unit.output = tail.output;
    unit.gemm_scale = *scale;
    return true;
  });
}

}  // namespace kbv::cuda
