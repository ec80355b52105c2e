// data/reference_graph.cpp — node-by-node execution of a problem graph on the device, with
// intermediates freed as soon as no later node reads them and elementwise ops writing over the
// operand they read last (graph/in_place.hpp): KernelBench-sized intermediates are hundreds of MB
// to 17 GB in fp64.
#include "data/reference_graph.hpp"

#include <map>
#include <string>

#include "common/device_buffer.hpp"
#include "data/reference_ops.hpp"
#include "graph/in_place.hpp"

namespace kbv::cuda {
namespace {

OpError graph_error(const ResolvedProblem& problem, const std::string& what) {
  return OpError("problem " + problem.problem.name + " (device reference graph): " + what);
}

}  // namespace

void run_reference_graph_device(const ResolvedProblem& problem,
                                const std::vector<const double*>& device_inputs_f64,
                                const std::vector<double*>& device_outputs_f64,
                                const ReferenceContext& context) {
  const Problem& spec = problem.problem;
  if (device_inputs_f64.size() != spec.inputs.size())
    throw graph_error(problem, std::to_string(device_inputs_f64.size()) + " input buffers for " +
                                   std::to_string(spec.inputs.size()) + " declared inputs");
  if (device_outputs_f64.size() != spec.outputs.size())
    throw graph_error(problem, std::to_string(device_outputs_f64.size()) + " output buffers for " +
                                   std::to_string(spec.outputs.size()) + " declared outputs");

  std::map<std::string, const double*> tensors;  // every tensor written or given so far
  for (size_t i = 0; i < spec.inputs.size(); ++i) tensors[spec.inputs[i].name] = device_inputs_f64[i];
  std::map<std::string, double*> output_slots;
  for (size_t i = 0; i < spec.outputs.size(); ++i) output_slots[spec.outputs[i].name] = device_outputs_f64[i];

  const ReferenceBuffers plan = plan_reference_buffers(problem);
  for (const auto& output : spec.outputs) {
    bool produced = false;
    for (const Node& node : spec.graph) produced = produced || node.output == output.name;
    if (!produced) throw graph_error(problem, "output '" + output.name + "' is not produced by any node");
  }

  std::map<std::string, DeviceBuffer<double>> intermediates;
  for (size_t n = 0; n < spec.graph.size(); ++n) {
    const Node& node = spec.graph[n];
    OpArgs<double> args;
    for (const auto& name : node.inputs) {
      auto tensor = tensors.find(name);
      if (tensor == tensors.end())
        throw graph_error(problem, "node " + node.name + " reads '" + name +
                                       "', which no input or earlier node provides");
      args.inputs.push_back(tensor->second);
      args.input_shapes.push_back(problem.tensor_shapes.at(name));
    }
    args.output_shape = problem.tensor_shapes.at(node.output);
    args.attrs = &node.attrs;
    const std::string& home = plan.home.at(node.output);
    if (auto slot = output_slots.find(home); slot != output_slots.end()) {
      args.output = slot->second;  // the output itself, or a tensor of the chain that ends in it
    } else if (home != node.output) {
      args.output = intermediates.at(home).get();  // over the operand it reads last
    } else {
      auto buffer = DeviceBuffer<double>::on_stream(static_cast<size_t>(numel(args.output_shape)),
                                                    context.stream());
      args.output = buffer.get();
      intermediates.insert_or_assign(node.output, std::move(buffer));
    }
    run_op_f64_device(node.op, args, context);
    tensors[node.output] = args.output;

    // Stream-ordered frees: safe while the kernels just enqueued still read these buffers. No
    // later node reads a tensor the buffer held (the plan's last use), so their names go too.
    for (auto it = intermediates.begin(); it != intermediates.end();) {
      if (plan.last_use.at(it->first) <= n) {
        for (const auto& [tensor, held_in] : plan.home)
          if (held_in == it->first) tensors.erase(tensor);
        it = intermediates.erase(it);
      } else {
        ++it;
      }
    }
  }
}

void run_reference_graph_device(const ResolvedProblem& problem,
                                const std::vector<const double*>& device_inputs_f64,
                                std::vector<double*> device_outputs_f64, cudaStream_t stream) {
  const ReferenceContext context(stream);
  run_reference_graph_device(problem, device_inputs_f64, device_outputs_f64, context);
}

}  // namespace kbv::cuda
