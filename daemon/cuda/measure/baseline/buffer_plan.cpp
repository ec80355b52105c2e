// baseline/buffer_plan.cpp — liveness of intermediates and best-fit slot reuse.
#include "measure/baseline/buffer_plan.hpp"

#include <limits>
#include <numeric>
#include <stdexcept>

namespace kbv::cuda {

size_t BufferPlan::intermediate_bytes() const {
  return std::accumulate(slot_bytes.begin(), slot_bytes.end(), size_t{0});
}

namespace {

size_t rounded_bytes(const Shape& shape) {
  const size_t bytes = static_cast<size_t>(numel(shape)) * sizeof(float);
  return (bytes + kAllocatorBlockBytes - 1) / kAllocatorBlockBytes * kAllocatorBlockBytes;
}

std::invalid_argument plan_error(const ResolvedProblem& problem, const std::string& what) {
  return std::invalid_argument("problem " + problem.problem.name + ": " + what);
}

}  // namespace

BufferPlan plan_buffers(const ResolvedProblem& problem) {
  std::vector<BaselineUnit> units;
  for (size_t n = 0; n < problem.problem.graph.size(); ++n)
    units.push_back({{n}, problem.problem.graph[n].inputs, problem.problem.graph[n].output, std::nullopt});
  return plan_buffers(problem, units);
}

BufferPlan plan_buffers(const ResolvedProblem& problem, const std::vector<BaselineUnit>& units) {
  const Problem& spec = problem.problem;
  BufferPlan plan;
  for (size_t i = 0; i < spec.inputs.size(); ++i)
    plan.tensors[spec.inputs[i].name] = {TensorLocation::Kind::input, i};

  std::map<std::string, size_t> producer;
  for (size_t n = 0; n < spec.graph.size(); ++n) {
    const std::string& name = spec.graph[n].output;
    if (plan.tensors.count(name) || !producer.emplace(name, n).second)
      throw plan_error(problem, "tensor '" + name + "' is produced twice; the CUDA baseline "
                                "needs each graph tensor written by exactly one node");
  }
  for (size_t i = 0; i < spec.outputs.size(); ++i) {
    const std::string& name = spec.outputs[i].name;
    if (!producer.count(name))
      throw plan_error(problem, "output '" + name + "' is not produced by any graph node; "
                                "the CUDA baseline writes outputs only from nodes");
    plan.tensors[name] = {TensorLocation::Kind::output, i};
  }

  // Index of the last unit reading each tensor.
  std::map<std::string, size_t> last_use;
  for (size_t u = 0; u < units.size(); ++u)
    for (const std::string& name : units[u].inputs) last_use[name] = u;

  // busy_until[s]: index of the last unit that still needs slot s.
  std::vector<size_t> busy_until;
  for (size_t u = 0; u < units.size(); ++u) {
    const std::string& name = units[u].output;
    if (plan.tensors.count(name)) continue;  // a problem output
    const auto shape = problem.tensor_shapes.find(name);
    if (shape == problem.tensor_shapes.end())
      throw plan_error(problem, "no resolved shape for intermediate '" + name + "'");
    const size_t bytes = rounded_bytes(shape->second);
    const auto use = last_use.find(name);
    const size_t needed_until = use == last_use.end() ? u : use->second;

    size_t best = std::numeric_limits<size_t>::max();
    for (size_t s = 0; s < plan.slot_bytes.size(); ++s) {
      const bool free_now = busy_until[s] < u;
      if (free_now && plan.slot_bytes[s] >= bytes &&
          (best == std::numeric_limits<size_t>::max() || plan.slot_bytes[s] < plan.slot_bytes[best]))
        best = s;
    }
    if (best == std::numeric_limits<size_t>::max()) {
      best = plan.slot_bytes.size();
      plan.slot_bytes.push_back(bytes);
      busy_until.push_back(needed_until);
    } else {
      busy_until[best] = needed_until;
    }
    plan.tensors[name] = {TensorLocation::Kind::slot, best};
  }
  return plan;
}

}  // namespace kbv::cuda
