// graph/in_place.cpp — the fp64 reference graph's buffer plan: which elementwise ops write over
// the operand they read last (the rule is in in_place.hpp).
#include "graph/in_place.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "ops/registry.hpp"

namespace kbv {
namespace {

// The operand `node` (node index n) may overwrite: an intermediate of the output's own shape that
// no later node reads, read elementwise (element i from element i: unary ops, and binary ones for
// an operand not broadcast). A graph output never, whatever reads it: its values must stay.
std::optional<std::string> overwritable_operand(const ResolvedProblem& problem, const Node& node, size_t n,
                                                const std::map<std::string, size_t>& last_use, const std::set<std::string>& produced,
                                                const std::set<std::string>& outputs) {
  const Op* op = find_op(node.op);
  if (op == nullptr) return std::nullopt;
  const OpCategory category = op->doc().category;
  if (category != OpCategory::unary && category != OpCategory::binary) return std::nullopt;
  const Shape& out = problem.tensor_shapes.at(node.output);
  for (const std::string& operand : node.inputs) {
    if (!produced.count(operand) || outputs.count(operand)) continue;  // a problem input, or an output
    if (last_use.at(operand) != n) continue;
    if (problem.tensor_shapes.at(operand) != out) continue;
    return operand;
  }
  return std::nullopt;
}

// The plan, with elementwise ops over their last-read operand (`overwrite`) or every produced
// tensor in a buffer of its own.
ReferenceBuffers plan_buffers(const ResolvedProblem& problem, bool overwrite) {
  const Problem& spec = problem.problem;
  std::set<std::string> outputs;
  for (const TensorDecl& output : spec.outputs) outputs.insert(output.name);
  std::map<std::string, size_t> last_use;  // the last node reading each tensor (its producer when none does)
  for (size_t n = 0; n < spec.graph.size(); ++n) {
    last_use[spec.graph[n].output] = n;
    for (const std::string& name : spec.graph[n].inputs) last_use[name] = n;
  }

  ReferenceBuffers plan;
  std::set<std::string> produced;
  for (size_t n = 0; n < spec.graph.size(); ++n) {
    const Node& node = spec.graph[n];
    const auto operand = overwrite ? overwritable_operand(problem, node, n, last_use, produced, outputs) : std::nullopt;
    plan.home[node.output] = operand ? plan.home.at(*operand) : node.output;
    produced.insert(node.output);
  }
  // A chain that ends in a graph output lives in the output's slot from its first tensor on (an
  // output ends its chain: nothing overwrites it).
  for (const std::string& output : outputs) {
    const auto it = plan.home.find(output);
    if (it == plan.home.end() || it->second == output) continue;
    const std::string root = it->second;
    for (auto& [tensor, home] : plan.home)
      if (home == root) home = output;
  }
  for (const auto& [tensor, home] : plan.home) {
    if (outputs.count(home)) continue;
    auto [it, inserted] = plan.last_use.emplace(home, last_use.at(tensor));
    if (!inserted) it->second = std::max(it->second, last_use.at(tensor));
  }
  return plan;
}

}  // namespace

ReferenceBuffers plan_reference_buffers(const ResolvedProblem& problem) { return plan_buffers(problem, true); }

ReferenceBuffers plan_separate_buffers(const ResolvedProblem& problem) { return plan_buffers(problem, false); }

double peak_intermediates(const ResolvedProblem& problem, const ReferenceBuffers& plan) {
  const Problem& spec = problem.problem;
  double live = 0, peak = 0;
  std::map<std::string, double> alive;  // buffer-owning intermediates allocated so far and not freed
  for (size_t n = 0; n < spec.graph.size(); ++n) {
    const std::string& produced = spec.graph[n].output;
    if (plan.last_use.count(produced) && plan.home.at(produced) == produced) {
      const double size = static_cast<double>(numel(problem.tensor_shapes.at(produced)));
      alive[produced] = size;
      live += size;
      peak = std::max(peak, live);
    }
    for (auto it = alive.begin(); it != alive.end();) {
      if (plan.last_use.at(it->first) <= n) {
        live -= it->second;
        it = alive.erase(it);
      } else {
        ++it;
      }
    }
  }
  return peak;
}

}  // namespace kbv
