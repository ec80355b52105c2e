// baseline/elementwise_groups.cpp — runs of fusable nodes, cut where a value escapes.
#include "measure/baseline/elementwise_groups.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace kbv::cuda {
namespace {

// A single node reads its inputs as the node lists them (a repeated one twice); a chain reads
// each outside tensor once.
BaselineUnit unit_of(const Problem& spec, const std::vector<size_t>& nodes) {
  BaselineUnit unit;
  unit.nodes = nodes;
  if (nodes.size() == 1) {
    unit.inputs = spec.graph[nodes.front()].inputs;
    unit.output = spec.graph[nodes.front()].output;
    return unit;
  }
  std::set<std::string> produced;
  for (size_t n : nodes) {
    for (const std::string& name : spec.graph[n].inputs)
      if (!produced.count(name) && std::find(unit.inputs.begin(), unit.inputs.end(), name) == unit.inputs.end())
        unit.inputs.push_back(name);
    produced.insert(spec.graph[n].output);
  }
  unit.output = spec.graph[nodes.back()].output;
  return unit;
}

}  // namespace

bool leaves_unit(const Problem& problem, const std::string& value, const BaselineUnit& unit) {
  for (size_t n = 0; n < problem.graph.size(); ++n)
    if (std::find(unit.nodes.begin(), unit.nodes.end(), n) == unit.nodes.end())
      for (const std::string& name : problem.graph[n].inputs)
        if (name == value) return true;
  return std::any_of(problem.outputs.begin(), problem.outputs.end(), [&](const TensorDecl& output) { return output.name == value; });
}

std::vector<BaselineUnit> fold_into_previous(std::vector<BaselineUnit> units,
                                             const std::function<bool(BaselineUnit& unit, const BaselineUnit& next)>& absorb) {
  std::vector<BaselineUnit> folded;
  for (size_t u = 0; u < units.size(); ++u) {
    const bool absorbed = u + 1 < units.size() && absorb(units[u], units[u + 1]);
    folded.push_back(std::move(units[u]));
    if (absorbed) ++u;  // part of the unit before it now
  }
  return folded;
}

std::vector<BaselineUnit> plan_units(const ResolvedProblem& problem, const std::function<bool(std::string_view op)>& fusable,
                                     bool fuse) {
  const Problem& spec = problem.problem;
  std::map<std::string, std::vector<size_t>> readers;
  for (size_t n = 0; n < spec.graph.size(); ++n)
    for (const std::string& name : spec.graph[n].inputs) readers[name].push_back(n);
  std::set<std::string> outputs;
  for (const TensorDecl& output : spec.outputs) outputs.insert(output.name);
  const auto shape_of = [&](const std::string& name) -> const Shape& { return problem.tensor_shapes.at(name); };

  std::vector<BaselineUnit> units;
  // Emits a run as units: whole when no value but the last leaves it, else cut after the first
  // member whose value does (a problem output, or read by a node outside the run), and the rest
  // emitted the same way.
  const auto emit = [&](std::vector<size_t> run) {
    while (!run.empty()) {
      size_t cut = run.size() - 1;
      for (size_t m = 0; m + 1 < run.size() && cut == run.size() - 1; ++m) {
        const std::string& value = spec.graph[run[m]].output;
        bool escapes = outputs.count(value) > 0;
        for (size_t reader : readers[value]) escapes = escapes || std::find(run.begin(), run.end(), reader) == run.end();
        if (escapes) cut = m;
      }
      units.push_back(unit_of(spec, std::vector<size_t>(run.begin(), run.begin() + static_cast<std::ptrdiff_t>(cut) + 1)));
      run.erase(run.begin(), run.begin() + static_cast<std::ptrdiff_t>(cut) + 1);
    }
  };
  // Whether node `n` may join the run: it reads the run's last value, keeps its shape, and the
  // grown run fits the kernel (earlier values were split off by split_before). Values leaving the run are settled by emit().
  std::vector<size_t> run;
  const auto extends_run = [&](size_t n) {
    if (run.empty() || run.size() >= kMaxFusedNodes) return false;
    const Node& node = spec.graph[n];
    const std::string& last = spec.graph[run.back()].output;
    if (std::find(node.inputs.begin(), node.inputs.end(), last) == node.inputs.end()) return false;
    if (shape_of(node.output) != shape_of(last)) return false;
    std::vector<size_t> grown = run;
    grown.push_back(n);
    return unit_of(spec, grown).inputs.size() <= kMaxFusedInputs;
  };
  // The fused kernel keeps one value per element, the last: when node `n` reads an earlier value
  // of the run, the run up to that value is emitted (the value leaves it as a tensor) and the
  // rest goes on, so that `n` may still join what follows.
  const auto split_before = [&](size_t n) {
    const Node& node = spec.graph[n];
    for (size_t m = run.size() - 1; m-- > 0;) {
      if (std::find(node.inputs.begin(), node.inputs.end(), spec.graph[run[m]].output) == node.inputs.end()) continue;
      emit(std::vector<size_t>(run.begin(), run.begin() + static_cast<std::ptrdiff_t>(m) + 1));
      run.erase(run.begin(), run.begin() + static_cast<std::ptrdiff_t>(m) + 1);
      return;
    }
  };
  for (size_t n = 0; n < spec.graph.size(); ++n) {
    const bool elementwise = fuse && fusable(spec.graph[n].op);
    if (elementwise && !run.empty()) split_before(n);
    if (elementwise && extends_run(n)) {
      run.push_back(n);
      continue;
    }
    emit(run);
    run = {n};
    if (!elementwise) {
      emit(run);
      run.clear();
    }
  }
  emit(run);
  return units;
}

}  // namespace kbv::cuda
