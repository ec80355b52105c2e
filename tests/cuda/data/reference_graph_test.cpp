// tests/cuda/data/reference_graph_test.cpp — the device graph runner agrees with the host's
// run_reference_f64 on hand-built graphs (fused problems, multiple outputs, an output read by a
// later node, a 64-input cat and a chain of layout ops) and on every bundled problem at its small
// shape set.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

#include "data/device_inputs.hpp"
#include "data/reference_graph.hpp"
#include "gpu_test_support.hpp"
#include "graph/error_scale_graph.hpp"
#include "graph/run_graph.hpp"
#include "inputs/generate.hpp"
#include "ops/registry.hpp"
#include "spec/catalog.hpp"

namespace kbv::cuda::testing {
namespace {

// Same margin as the per-op test (reference_ops_test.cpp): ulp-level reordering only.
constexpr double kMaxNormwiseDifference = 1e-12;

struct HandGraph {
  std::string name;
  std::vector<std::pair<std::string, Shape>> inputs;
  std::vector<std::string> outputs;
  std::vector<Node> graph;  // attrs: overrides only
};

// What resolve_problem does for a YAML file: defaults merged into each node, shapes inferred.
ResolvedProblem resolve_by_hand(const HandGraph& g) {
  ResolvedProblem r;
  r.problem.name = g.name;
  r.shape_set = "test";
  for (const auto& [name, shape] : g.inputs) {
    TensorDecl decl;
    decl.name = name;
    r.problem.inputs.push_back(decl);
    r.input_shapes.push_back(shape);
    r.tensor_shapes[name] = shape;
  }
  for (Node node : g.graph) {
    const Op* op = find_op(node.op);
    Attrs attrs = op->attribute_defaults();
    for (const auto& [name, value] : node.attrs) attrs[name] = value;
    node.attrs = attrs;
    std::vector<Shape> in;
    for (const auto& name : node.inputs) in.push_back(r.tensor_shapes.at(name));
    r.tensor_shapes[node.output] = op->infer_shape(in, node.attrs);
    r.problem.graph.push_back(node);
  }
  for (const auto& name : g.outputs) {
    TensorDecl decl;
    decl.name = name;
    r.problem.outputs.push_back(decl);
    r.output_shapes.push_back(r.tensor_shapes.at(name));
  }
  return r;
}

// 64 intermediates live at once and read by one node: x scaled 64 ways and concatenated along
// the channels (a DenseNet block's cat, the most inputs cat takes), then a layout chain
// (ShuffleNet's channel shuffle: unflatten, transpose, flatten) and a flip.
HandGraph wide_cat_and_shuffle() {
  HandGraph g{"wide_cat_and_shuffle", {{"x", {2, 3, 4, 5}}}, {"shuffled"}, {}};
  std::vector<std::string> scaled;
  for (int i = 0; i < 64; ++i) {
    scaled.push_back("s" + std::to_string(i));
    g.graph.push_back({"scale" + std::to_string(i), "scale", {"x"}, scaled.back(),
                       {{"value", 0.5 + i}}});
  }
  g.graph.push_back({"join", "cat", scaled, "joined", {{"axis", 1}}});
  g.graph.push_back({"groups", "unflatten", {"joined"}, "grouped", {{"axis", 1}, {"size", 8}}});
  g.graph.push_back({"swap", "transpose", {"grouped"}, "swapped", {{"axis0", 1}, {"axis1", 2}}});
  g.graph.push_back(
      {"merge", "flatten", {"swapped"}, "merged", {{"start_axis", 1}, {"end_axis", 2}}});
  g.graph.push_back({"reverse", "flip", {"merged"}, "shuffled", {{"axis", -1}}});
  return g;
}

std::vector<HandGraph> hand_graphs() {
  return {
      {"conv2d_relu_biasadd",
       {{"x", {2, 4, 12, 12}}, {"weight", {8, 4, 3, 3}}, {"conv_bias", {8}}, {"bias", {8, 1, 1}}},
       {"y"},
       {{"conv", "conv2d", {"x", "weight", "conv_bias"}, "c", {}},
        {"act", "relu", {"c"}, "r", {}},
        {"bias_add", "add", {"r", "bias"}, "y", {}}}},
      {"matmul_scale_residual",
       {{"x", {32, 64}}, {"weight", {48, 64}}, {"bias", {48}}},
       {"y"},
       {{"fc", "linear", {"x", "weight", "bias"}, "z", {}},
        {"half", "scale", {"z"}, "s", {{"value", 0.5}}},
        {"residual", "add", {"s", "z"}, "y", {}}}},
      {"gemm_bias_gelu",
       {{"x", {32, 64}}, {"weight", {48, 64}}, {"bias", {48}}},
       {"y"},
       {{"fc", "linear", {"x", "weight", "bias"}, "z", {}}, {"act", "gelu", {"z"}, "y", {}}}},
      {"two_outputs_one_read_later",
       {{"x", {4, 6, 10}}},
       {"activated", "row_sums"},
       {{"act", "sigmoid", {"x"}, "activated", {}},
        {"unused", "tanh", {"x"}, "dead", {}},
        {"reduce", "sum", {"activated"}, "row_sums", {{"axis", 2}, {"keepdim", 0}}}}},
      wide_cat_and_shuffle(),
      // Elementwise ops over the operand they read last (graph/in_place.hpp): `again` over t0
      // (which relu read before it), `wide` over t2 with a broadcast row beside it, so exp writes
      // into kept's slot; y and z not over kept (an output) or x (an input); scale over u0, an
      // intermediate chain that ends in a reduction.
      {"overwrites_in_place",
       {{"x", {4, 6, 10}}, {"row", {1, 6, 10}}},
       {"kept", "y", "z", "total"},
       {{"e", "exp", {"x"}, "t0", {}},
        {"r", "relu", {"t0"}, "t1", {}},
        {"again", "add", {"t0", "t1"}, "t2", {}},
        {"small", "mul", {"row", "row"}, "t3", {}},
        {"wide", "add", {"t3", "t2"}, "kept", {}},
        {"from_output", "relu", {"kept"}, "y", {}},
        {"from_input", "relu", {"x"}, "z", {}},
        {"squash", "tanh", {"x"}, "u0", {}},
        {"double", "scale", {"u0"}, "u1", {{"value", 2.0}}},
        {"reduce", "sum", {"u1"}, "total", {{"axis", 2}, {"keepdim", 0}}}}},
  };
}

class ReferenceGraphTest : public GpuTest {
 protected:
  // Runs `problem` on host and device from the same fp64 inputs; checks every output.
  void expect_agreement(const ResolvedProblem& problem, const std::vector<std::vector<double>>& inputs) {
    std::vector<const double*> host_inputs;
    std::vector<DeviceBuffer<double>> device_buffers;
    std::vector<const double*> device_inputs;
    for (const auto& values : inputs) {
      host_inputs.push_back(values.data());
      device_buffers.push_back(upload(values));
      device_inputs.push_back(device_buffers.back().get());
    }
    const std::vector<HostTensor<double>> host = run_reference_f64(problem, host_inputs);
    std::vector<DeviceBuffer<double>> outputs;
    std::vector<double*> output_pointers;
    for (const Shape& shape : problem.output_shapes) {
      outputs.push_back(nan_filled(static_cast<size_t>(numel(shape))));
      output_pointers.push_back(outputs.back().get());
    }
    run_reference_graph_device(problem, device_inputs, output_pointers, stream());
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Difference d = normwise_difference(download(outputs[i].get(), outputs[i].size()),
                                               host.at(i).data);
      EXPECT_LT(d.relative, kMaxNormwiseDifference)
          << problem.problem.name << " (" << problem.shape_set << ") output "
          << problem.problem.outputs[i].name << ": device vs host differ by " << d.relative
          << " (normwise), max abs " << d.max_abs << " at element " << d.worst_index;
    }
  }
};

TEST_F(ReferenceGraphTest, HandBuiltGraphsMatchTheHostReference) {
  uint64_t seed = 500;
  for (const HandGraph& g : hand_graphs()) {
    const ResolvedProblem problem = resolve_by_hand(g);
    std::vector<std::vector<double>> inputs;
    for (const Shape& shape : problem.input_shapes) {
      inputs.push_back(random_normal(static_cast<size_t>(numel(shape)), seed++));
    }
    expect_agreement(problem, inputs);
  }
}

// The products' error-scale graphs (graph/error_scale_graph.hpp) run on the device as on the host:
// the data plane computes them there when a comparison fails by the default rule.
TEST_F(ReferenceGraphTest, ErrorScaleGraphsMatchTheHostReference) {
  uint64_t seed = 700;
  int with_scale = 0;
  for (const HandGraph& g : hand_graphs()) {
    const ResolvedProblem problem = resolve_by_hand(g);
    const std::optional<ErrorScaleGraph> scales = error_scale_graph(problem);
    if (!scales) continue;
    ++with_scale;
    std::vector<std::vector<double>> inputs;
    for (const Shape& shape : problem.input_shapes) inputs.push_back(random_normal(static_cast<size_t>(numel(shape)), seed++));
    expect_agreement(scales->problem, inputs);
  }
  EXPECT_EQ(with_scale, 3) << "conv2d_relu_biasadd, matmul_scale_residual and gemm_bias_gelu have products";
}

TEST_F(ReferenceGraphTest, MissingOutputOrInputIsReported) {
  HandGraph g = hand_graphs()[2];
  const ResolvedProblem problem = resolve_by_hand(g);
  DeviceBuffer<double> y(static_cast<size_t>(numel(problem.output_shapes[0])));
  EXPECT_THROW(run_reference_graph_device(problem, {}, {y.get()}, stream()), OpError);
  ResolvedProblem no_producer = problem;
  no_producer.problem.outputs[0].name = "x";  // an input, produced by no node
  DeviceBuffer<double> x(static_cast<size_t>(numel(problem.input_shapes[0])));
  DeviceBuffer<double> w(static_cast<size_t>(numel(problem.input_shapes[1])));
  DeviceBuffer<double> b(static_cast<size_t>(numel(problem.input_shapes[2])));
  EXPECT_THROW(run_reference_graph_device(no_producer, {x.get(), w.get(), b.get()}, {y.get()}, stream()),
               OpError);
}

// Every bundled problem at its small shape set, from inputs generated on the device (normal
// family, or the public one where the function is undefined on normal inputs; the problem's own
// scales) against the host pipeline from generate_host.
TEST_F(ReferenceGraphTest, BundledProblemsAtSmallShapesMatchTheHostReference) {
  const std::filesystem::path directory = default_problems_directory();
  std::optional<ProblemCatalog> catalog;
  try {
    catalog = ProblemCatalog::load(directory);
  } catch (const std::exception& error) {
    GTEST_SKIP() << "no problem catalog at " << directory << ": " << error.what();
  }
  if (catalog->names().empty()) GTEST_SKIP() << "no problems in " << directory;
  constexpr uint64_t kSeed = 0x5eed;
  for (const std::string& name : catalog->names()) {
    // A GPU-only problem has no small set and no host reference in test time: its baselines are
    // checked against the device reference at default shapes (gpu_only_problems_test.cpp).
    if (!catalog->get(name).gpu_only_reason.empty()) continue;
    const ResolvedProblem problem = resolve_problem(catalog->get(name), "small");
    std::vector<std::vector<double>> host_inputs;
    std::vector<DeviceBuffer<double>> device_inputs;
    // The normal family first (signs everywhere); a problem whose function is undefined there
    // (kl_div of log(predictions): KernelBench draws them with torch.rand) is compared on the
    // public family, uniform on [0, 1), where it is defined.
    std::vector<HostTensor<double>> host;
    for (const inputs::Family family : {inputs::Family::normal, inputs::Family::uniform01}) {
      host_inputs.clear();
      device_inputs.clear();
      for (size_t i = 0; i < problem.input_shapes.size(); ++i) {
        const int64_t count = numel(problem.input_shapes[i]);
        const Shape& shape = problem.input_shapes[i];
        const inputs::TensorAxes axes = inputs::axes_of_shape(shape.data(), shape.size());
        const double scale = problem.input_scale(i);
        device_inputs.emplace_back(static_cast<size_t>(count));
        if (problem.input_dtype(i) != DType::float32) {
          // Class indices or a mask, drawn in their dtype as the evaluator draws them and widened
          // as the reference reads them (random floats would be no valid target).
          const DType dtype = problem.input_dtype(i);
          DeviceBuffer<int64_t> typed(static_cast<size_t>(count));  // room for int64 and bool alike
          generate_typed_inputs_on_device(typed.get(), dtype, count, family, {}, kSeed, static_cast<uint32_t>(i), axes, scale,
                                          problem.input_ranges.at(i), stream());
          widen_to_f64(typed.get(), dtype, device_inputs.back().get(), count, stream());
          host_inputs.push_back(download(device_inputs.back().get(), static_cast<size_t>(count)));
          continue;
        }
        std::vector<float> host_f32(static_cast<size_t>(count));
        inputs::generate_host(host_f32.data(), count, family, {}, kSeed,
                              static_cast<uint32_t>(i), axes, scale);
        DeviceBuffer<float> device_f32(static_cast<size_t>(count));
        generate_inputs_on_device(device_f32.get(), count, family, {}, kSeed,
                                  static_cast<uint32_t>(i), axes, scale, stream());
        widen_f32_to_f64(device_f32.get(), device_inputs.back().get(), count, stream());
        // Both graphs read the device's widened inputs, so a (rare, 1-ulp) generation difference
        // cannot blur this comparison; generation itself is checked in device_inputs_test.cpp.
        host_inputs.push_back(download(device_inputs.back().get(), static_cast<size_t>(count)));
        int64_t differing = 0;
        for (int64_t e = 0; e < count; ++e) differing += host_inputs.back()[e] != double(host_f32[e]);
        EXPECT_EQ(differing, 0) << name << ": input " << i << " has " << differing << " of " << count
                                << " elements that differ between generate_host and the device";
      }
      std::vector<const double*> host_pointers;
      for (const auto& values : host_inputs) host_pointers.push_back(values.data());
      host = run_reference_f64(problem, host_pointers);
      const bool finite = std::all_of(host.begin(), host.end(), [](const HostTensor<double>& t) {
        return std::all_of(t.data.begin(), t.data.end(), [](double v) { return std::isfinite(v); });
      });
      if (finite) break;
    }
    std::vector<const double*> device_pointers;
    for (const auto& buffer : device_inputs) device_pointers.push_back(buffer.get());

    std::vector<DeviceBuffer<double>> outputs;
    std::vector<double*> output_pointers;
    for (const Shape& shape : problem.output_shapes) {
      outputs.push_back(nan_filled(static_cast<size_t>(numel(shape))));
      output_pointers.push_back(outputs.back().get());
    }
    run_reference_graph_device(problem, device_pointers, output_pointers, stream());
    for (size_t o = 0; o < outputs.size(); ++o) {
      const Difference d = normwise_difference(download(outputs[o].get(), outputs[o].size()),
                                               host.at(o).data);
      EXPECT_LT(d.relative, kMaxNormwiseDifference)
          << name << " (small) output " << o << ": device vs host differ by " << d.relative
          << " (normwise), max abs " << d.max_abs << " at element " << d.worst_index;
    }
  }
}

}  // namespace
}  // namespace kbv::cuda::testing
