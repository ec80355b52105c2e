// baseline/gemm_scale_fold.cpp — scaling and ReLU tails folded into a linear layer's alpha and epilogue (gemm_scale_fold.hpp).
#include "measure/baseline/gemm_scale_fold.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace kbv::cuda {

std::optional<GemmTail> gemm_tail_of(const Problem& problem, const BaselineUnit& unit, const std::string& input) {
  std::map<std::string, GemmTail> tails = {{input, GemmTail{}}};
  const auto of = [&](const std::string& name) -> std::optional<GemmTail> {
    const auto found = tails.find(name);
    return found == tails.end() ? std::nullopt : std::optional<GemmTail>(found->second);
  };
  for (const size_t n : unit.nodes) {
    const Node& node = problem.graph[n];
    std::optional<GemmTail> value;
    if (node.op == "scale" && node.inputs.size() == 1) {
      const auto factor = node.attrs.find("value");
      if (const auto x = of(node.inputs[0]); x && factor != node.attrs.end()) value = GemmTail{x->scale * factor->second, x->relu};
    } else if (node.op == "relu" && node.inputs.size() == 1) {
      // relu(c·z) = c·relu(z) only for c > 0.
      if (const auto x = of(node.inputs[0]); x && x->scale > 0) value = GemmTail{x->scale, true};
    } else if ((node.op == "add" || node.op == "sub") && node.inputs.size() == 2) {
      const auto a = of(node.inputs[0]), b = of(node.inputs[1]);
      if (a && b && a->relu == b->relu) value = GemmTail{node.op == "add" ? a->scale + b->scale : a->scale - b->scale, a->relu};
    }
    if (!value) return std::nullopt;
    tails[node.output] = *value;
  }
  const std::optional<GemmTail> result = of(unit.output);
  if (!result || !std::isfinite(result->scale) || result->scale == 0 || (result->relu && result->scale < 0)) return std::nullopt;
  return result;
}

std::optional<double> scalar_multiple_of(const Problem& problem, const BaselineUnit& unit, const std::string& input) {
  const std::optional<GemmTail> tail = gemm_tail_of(problem, unit, input);
  return tail && !tail->relu ? std::optional<double>(tail->scale) : std::nullopt;
}

std::vector<BaselineUnit> fold_gemm_scales(const ResolvedProblem& problem, std::vector<BaselineUnit> units) {
  const Problem& spec = problem.problem;
  return fold_into_previous(std::move(units), [&](BaselineUnit& unit, const BaselineUnit& tail) {
    const bool linear = unit.nodes.size() == 1 && !unit.gemm_scale && spec.graph[unit.nodes.front()].op == "linear";
    const bool reads_only_it = tail.inputs.size() == 1 && tail.inputs.front() == unit.output;
    if (!linear || !reads_only_it || leaves_unit(spec, unit.output, tail)) return false;
    const auto gemm_tail = gemm_tail_of(spec, tail, unit.output);
    if (!gemm_tail) return false;
    unit.nodes.insert(unit.nodes.end(), tail.nodes.begin(), tail.nodes.end());
    unit.output = tail.output;
    unit.gemm_scale = gemm_tail->scale;
    unit.gemm_relu = gemm_tail->relu;
    return true;
  });
}

}  // namespace kbv::cuda
