// graph/run_graph.cpp — host graph execution by tensor name. The fp64 reference follows the
// device reference's buffer plan (graph/in_place.hpp: elementwise ops over their last-read
// operand, intermediates freed after their last reader), so the memory the footprint estimates
// (eval/device_footprint.cpp) is what the host uses too; the fp32 baseline keeps every
// intermediate.
#include "graph/run_graph.hpp"

#include <map>
#include <string>

#include "graph/in_place.hpp"
#include "ops/registry.hpp"

namespace kbv {

namespace {

// `plan`: where each node writes (the fp64 reference's); without one, every intermediate gets a
// buffer of its own, kept to the end.
template <class T>
void run_nodes(const ResolvedProblem& problem, const std::vector<const T*>& inputs, const std::vector<T*>& outputs,
               const ReferenceBuffers* plan = nullptr) {
  std::map<std::string, const T*> tensors;
  for (size_t i = 0; i < problem.problem.inputs.size(); ++i) tensors[problem.problem.inputs[i].name] = inputs.at(i);
  std::map<std::string, T*> output_slots;
  for (size_t i = 0; i < problem.problem.outputs.size(); ++i) output_slots[problem.problem.outputs[i].name] = outputs.at(i);

  std::map<std::string, HostTensor<T>> intermediates;  // by the tensor that owns the buffer
  for (size_t n = 0; n < problem.problem.graph.size(); ++n) {
    const Node& node = problem.problem.graph[n];
    const Op* op = find_op(node.op);
    OpArgs<T> args;
    for (const auto& name : node.inputs) {
      args.inputs.push_back(tensors.at(name));
      args.input_shapes.push_back(problem.tensor_shapes.at(name));
    }
    args.output_shape = problem.tensor_shapes.at(node.output);
    args.attrs = &node.attrs;
    const std::string& home = plan ? plan->home.at(node.output) : node.output;
    if (auto slot = output_slots.find(home); slot != output_slots.end()) {
      args.output = slot->second;
    } else if (home != node.output) {
      args.output = intermediates.at(home).data.data();  // over the operand it reads last
    } else {
      args.output = intermediates.try_emplace(node.output, args.output_shape).first->second.data.data();
    }
    if constexpr (std::is_same_v<T, double>) op->reference_f64(args);
    else op->baseline_f32(args);
    tensors[node.output] = args.output;
    if (!plan) continue;
    for (auto it = intermediates.begin(); it != intermediates.end();) {
      if (plan->last_use.at(it->first) <= n) {
        for (const auto& [tensor, held_in] : plan->home)
          if (held_in == it->first) tensors.erase(tensor);
        it = intermediates.erase(it);
      } else {
        ++it;
      }
    }
  }
}

template <class T>
std::vector<HostTensor<T>> run_allocating(const ResolvedProblem& problem, const std::vector<const T*>& inputs,
                                          const ReferenceBuffers* plan = nullptr) {
  std::vector<HostTensor<T>> results;
  std::vector<T*> outputs;
  for (const Shape& shape : problem.output_shapes) results.emplace_back(shape);
  for (auto& result : results) outputs.push_back(result.data.data());
  run_nodes<T>(problem, inputs, outputs, plan);
  return results;
}

}  // namespace

std::vector<HostTensor<double>> run_reference_f64(const ResolvedProblem& problem, const std::vector<const double*>& inputs) {
  const ReferenceBuffers plan = plan_reference_buffers(problem);
  return run_allocating<double>(problem, inputs, &plan);
}

std::vector<HostTensor<float>> run_baseline_f32(const ResolvedProblem& problem, const std::vector<const float*>& inputs) {
  return run_allocating<float>(problem, inputs);
}

void run_baseline_f32_into(const ResolvedProblem& problem, const std::vector<const float*>& inputs,
                           const std::vector<float*>& outputs) {
  run_nodes<float>(problem, inputs, outputs);
}

}  // namespace kbv
