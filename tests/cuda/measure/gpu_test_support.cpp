// tests/cuda/measure/gpu_test_support.cpp — GPU presence, random data, single-op problems.
#include "gpu_test_support.hpp"

#include <stdexcept>

#include "measure/support/library_errors.hpp"
#include "ops/registry.hpp"

namespace kbv::cuda::measure_testing {

std::vector<float> random_values(size_t count, uint64_t seed, double scale) {
  std::vector<float> values(count);
  uint64_t state = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  for (float& v : values) {
    state ^= state >> 12;  // xorshift64*
    state ^= state << 25;
    state ^= state >> 27;
    const uint64_t bits = state * 0x2545f4914f6cdd1dull;
    const double unit = (static_cast<double>(bits >> 40) + 0.5) / 16777216.0;  // (0, 1)
    v = static_cast<float>((2.0 * unit - 1.0) * scale);
  }
  return values;
}

measure::DeviceMemory upload(const std::vector<float>& host) {
  measure::DeviceMemory device(host.size() * sizeof(float), "test tensor");
  measure::check(cudaMemcpy(device.get(), host.data(), host.size() * sizeof(float),
                            cudaMemcpyHostToDevice),
                 "cudaMemcpy (test upload)");
  return device;
}

std::vector<float> download(const void* device, size_t count) {
  std::vector<float> host(count);
  measure::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (test download)");
  measure::check(cudaMemcpy(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost),
                 "cudaMemcpy (test download)");
  return host;
}

ResolvedProblem single_op_problem(const std::string& op_name, const std::vector<Shape>& inputs,
                                  const Attrs& attrs) {
  const Op* op = find_op(op_name);
  if (!op) throw std::invalid_argument("no op named " + op_name + " in kbv_core's registry");
  ResolvedProblem resolved;
  Problem& problem = resolved.problem;
  problem.name = "single_" + op_name;
  Node node;
  node.name = "node";
  node.op = op_name;
  node.attrs = op->attribute_defaults();
  for (const auto& [key, value] : attrs) node.attrs[key] = value;
  for (size_t i = 0; i < inputs.size(); ++i) {
    TensorDecl decl;
    decl.name = "in" + std::to_string(i);
    problem.inputs.push_back(decl);
    node.inputs.push_back(decl.name);
    resolved.input_shapes.push_back(inputs[i]);
    resolved.tensor_shapes[decl.name] = inputs[i];
  }
  const Shape out = op->infer_shape(inputs, node.attrs);
  node.output = "out";
  TensorDecl output;
  output.name = "out";
  problem.outputs.push_back(output);
  resolved.output_shapes.push_back(out);
  resolved.tensor_shapes["out"] = out;
  resolved.flops = op->flops(inputs, out, node.attrs);
  problem.graph.push_back(node);
  resolved.shape_set = "test";
  return resolved;
}

std::vector<double> reference_of(const ResolvedProblem& problem,
                                 const std::vector<std::vector<float>>& inputs) {
  const Node& node = problem.problem.graph.at(0);
  std::vector<std::vector<double>> wide;
  for (const auto& input : inputs) wide.emplace_back(input.begin(), input.end());
  std::vector<double> out(static_cast<size_t>(numel(problem.output_shapes[0])));
  OpArgs<double> args;
  for (const auto& w : wide) args.inputs.push_back(w.data());
  args.input_shapes = problem.input_shapes;
  args.output = out.data();
  args.output_shape = problem.output_shapes[0];
  args.attrs = &node.attrs;
  find_op(node.op)->reference_f64(args);
  return out;
}

}  // namespace kbv::cuda::measure_testing
