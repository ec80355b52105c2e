// graph/run_graph.cpp — host graph execution with intermediates kept by tensor name.
#include "graph/run_graph.hpp"

#include <map>
#include <string>

#include "ops/registry.hpp"

namespace kbv {

namespace {

template <class T>
void run_nodes(const ResolvedProblem& problem, const std::vector<const T*>& inputs, const std::vector<T*>& outputs) {
  std::map<std::string, const T*> tensors;
  for (size_t i = 0; i < problem.problem.inputs.size(); ++i) tensors[problem.problem.inputs[i].name] = inputs.at(i);
  std::map<std::string, T*> output_slots;
  for (size_t i = 0; i < problem.problem.outputs.size(); ++i) output_slots[problem.problem.outputs[i].name] = outputs.at(i);

  std::vector<HostTensor<T>> intermediates;
  intermediates.reserve(problem.problem.graph.size());
  for (const Node& node : problem.problem.graph) {
    const Op* op = find_op(node.op);
    OpArgs<T> args;
    for (const auto& name : node.inputs) {
      args.inputs.push_back(tensors.at(name));
      args.input_shapes.push_back(problem.tensor_shapes.at(name));
    }
    args.output_shape = problem.tensor_shapes.at(node.output);
    args.attrs = &node.attrs;
    if (auto slot = output_slots.find(node.output); slot != output_slots.end()) {
      args.output = slot->second;
    } else {
      intermediates.emplace_back(args.output_shape);
      args.output = intermediates.back().data.data();
    }
    if constexpr (std::is_same_v<T, double>) op->reference_f64(args);
    else op->baseline_f32(args);
    tensors[node.output] = args.output;
  }
}

template <class T>
std::vector<HostTensor<T>> run_allocating(const ResolvedProblem& problem, const std::vector<const T*>& inputs) {
  std::vector<HostTensor<T>> results;
  std::vector<T*> outputs;
  for (const Shape& shape : problem.output_shapes) results.emplace_back(shape);
  for (auto& result : results) outputs.push_back(result.data.data());
  run_nodes<T>(problem, inputs, outputs);
  return results;
}

}  // namespace

std::vector<HostTensor<double>> run_reference_f64(const ResolvedProblem& problem, const std::vector<const double*>& inputs) {
  return run_allocating<double>(problem, inputs);
}

std::vector<HostTensor<float>> run_baseline_f32(const ResolvedProblem& problem, const std::vector<const float*>& inputs) {
  return run_allocating<float>(problem, inputs);
}

void run_baseline_f32_into(const ResolvedProblem& problem, const std::vector<const float*>& inputs,
                           const std::vector<float*>& outputs) {
  run_nodes<float>(problem, inputs, outputs);
}

}  // namespace kbv
