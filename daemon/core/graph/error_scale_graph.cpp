// graph/error_scale_graph.cpp — derives a problem's error-scale graph node by node (the rules are
// in error_scale_graph.hpp).
#include "graph/error_scale_graph.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "graph/products.hpp"
#include "ops/registry.hpp"

namespace kbv {
namespace {

// One-input ops that move or drop elements without arithmetic: applied to S as they are.
const std::set<std::string, std::less<>> kLayoutUnary = {"flatten", "squeeze", "unsqueeze", "unflatten", "transpose",
                                                         "slice",   "select",  "flip",      "tril",      "triu"};

// Max-like reductions: |max(a) − max(b)| ≤ max|a − b|, and so for min, which amax of S bounds.
const std::map<std::string, std::string, std::less<>> kMaxLike = {
    {"amax", "amax"}, {"amin", "amax"}, {"maxpool1d", "maxpool1d"}, {"maxpool2d", "maxpool2d"}, {"maxpool3d", "maxpool3d"}};

// The Lipschitz constant of an elementwise activation (max |f'|), or nullopt for an op that is
// not one. Computed over a fine grid for the smooth ones (gelu: x·Φ(x) peaks at 1.1289 near
// x = 2.42; silu 1.0998; mish 1.0885; hardswish 1.5 at x = 3).
std::optional<double> lipschitz_constant(const Node& node) {
  const std::string& op = node.op;
  auto attr = [&](const char* name) { return node.attrs.at(name); };
  if (op == "relu" || op == "hardtanh" || op == "clamp" || op == "abs" || op == "tanh" || op == "softplus") return 1.0;
  if (op == "sigmoid") return 0.25;
  if (op == "hardsigmoid") return 1.0 / 6.0;
  if (op == "gelu") return 1.1290;
  if (op == "silu") return 1.1;
  if (op == "mish") return 1.0885;
  if (op == "hardswish") return 1.5;
  if (op == "leaky_relu") return std::max(1.0, std::fabs(attr("negative_slope")));
  if (op == "elu") return std::max(1.0, std::fabs(attr("alpha")));
  if (op == "selu") return 1.0507009873554805 * 1.6732632423543772;  // scale·alpha (ops/selu)
  return std::nullopt;
}

class Builder {
 public:
  explicit Builder(const ResolvedProblem& problem) : source_(problem) {
    graph_.problem.problem.name = problem.problem.name + " (error scale)";
    graph_.problem.problem.file = problem.problem.file;
    graph_.problem.problem.inputs = problem.problem.inputs;
    graph_.problem.problem.tolerance = problem.problem.tolerance;
    graph_.problem.shape_set = problem.shape_set;
    graph_.problem.input_shapes = problem.input_shapes;
    graph_.problem.input_ranges = problem.input_ranges;
    for (const auto& input : problem.problem.inputs) graph_.problem.tensor_shapes[input.name] = problem.tensor_shapes.at(input.name);
  }

  std::optional<ErrorScaleGraph> build() {
    for (const Node& node : source_.problem.graph)
      if (auto scale = scale_of_node(node)) scales_[node.output] = *scale;
    bool any = false;
    for (const auto& output : source_.problem.outputs) {
      const auto scale = scales_.find(output.name);
      if (scale == scales_.end()) {
        graph_.scale_of_output.push_back(-1);
        continue;
      }
      any = true;
      std::string name = scale->second;
      // An output must be a node's own result, once: a scale that is an input's name or another
      // output's gets a copy (scale by 1). It keeps its node's name: the engines bind outputs by it.
      if (!produced_.contains(name) || taken_.contains(name)) name = emit("scale", {name}, {{"value", 1.0}});
      taken_.insert(name);
      TensorDecl decl;
      decl.name = name;
      for (int64_t dim : shape(name)) decl.dims.push_back(std::to_string(dim));
      graph_.scale_of_output.push_back(static_cast<int>(graph_.problem.problem.outputs.size()));
      graph_.problem.problem.outputs.push_back(std::move(decl));
      graph_.problem.output_shapes.push_back(shape(name));
    }
    if (!any) return std::nullopt;
    // Drop nodes no output depends on (a path that was cut after some steps).
    prune();
    return std::move(graph_);
  }

 private:
  const Shape& shape(const std::string& tensor) const { return graph_.problem.tensor_shapes.at(tensor); }
  std::optional<std::string> scale_of(const std::string& tensor) const {
    auto it = scales_.find(tensor);
    return it == scales_.end() ? std::nullopt : std::optional(it->second);
  }

  // Appends `op` over `inputs` with these attributes (the op's defaults for the rest); returns
  // its output's name.
  std::string emit(const std::string& op_name, const std::vector<std::string>& inputs, const Attrs& attrs) {
    const Op* op = find_op(op_name);
    if (op == nullptr) throw OpError("error-scale graph: no op named '" + op_name + "'");
    Node node;
    node.name = "error_scale_" + std::to_string(graph_.problem.problem.graph.size());
    node.op = op_name;
    node.inputs = inputs;
    node.output = "~" + node.name;
    node.attrs = op->attribute_defaults();
    for (const auto& [key, value] : attrs) node.attrs[key] = value;
    std::vector<Shape> shapes;
    for (const auto& input : inputs) shapes.push_back(shape(input));
    graph_.problem.tensor_shapes[node.output] = op->infer_shape(shapes, node.attrs);
    produced_.insert(node.output);
    graph_.problem.problem.graph.push_back(std::move(node));
    return graph_.problem.problem.graph.back().output;
  }

  // The tensor itself and the named copies the graph needs of it: the source's tensors enter the
  // derived graph by name (inputs are inputs; an intermediate is recomputed, below).
  std::string square(const std::string& tensor) {
    if (auto it = squares_.find(tensor); it != squares_.end()) return it->second;
    const std::string value = value_of(tensor);
    return squares_[tensor] = emit("mul", {value, value}, {});
  }
  std::string magnitude(const std::string& tensor) { return emit("abs", {value_of(tensor)}, {}); }
  // a² + S_a²: what an operand contributes to a product's error scale.
  std::string operand_term(const std::string& tensor) {
    const std::string squared = square(tensor);
    if (auto scale = scale_of(tensor)) return emit("add", {squared, emit("mul", {*scale, *scale}, {})}, {});
    return squared;
  }

  // A source tensor's values in the derived graph: an input by its name; an intermediate by
  // re-running the source node that made it (and its own inputs, recursively), once.
  std::string value_of(const std::string& tensor) {
    if (graph_.problem.tensor_shapes.contains(tensor) && !produced_.contains(tensor)) return tensor;  // an input
    if (auto it = values_.find(tensor); it != values_.end()) return it->second;
    for (const Node& node : source_.problem.graph) {
      if (node.output != tensor) continue;
      std::vector<std::string> inputs;
      for (const auto& input : node.inputs) inputs.push_back(value_of(input));
      return values_[tensor] = emit(node.op, inputs, node.attrs);
    }
    throw OpError("error-scale graph: no input or node provides '" + tensor + "'");
  }

  // The error scale of `node`'s output, or nullopt where the path ends.
  std::optional<std::string> scale_of_node(const Node& node) {
    const std::string& op = node.op;
    const Shape& out_shape = source_.tensor_shapes.at(node.output);
    std::vector<std::optional<std::string>> in;
    for (const auto& input : node.inputs) in.push_back(scale_of(input));
    const bool any_scaled = std::any_of(in.begin(), in.end(), [](const auto& s) { return s.has_value(); });

    if (is_product_op(op)) {
      const std::string products = emit(op, {operand_term(node.inputs[0]), operand_term(node.inputs[1])}, node.attrs);
      return emit("sqrt", {products}, {});
    }
    if (!any_scaled) return std::nullopt;
    if (kLayoutUnary.contains(op)) return emit(op, {*in[0]}, node.attrs);
    if (op == "add_scalar" || op == "rsub_scalar") return in[0];
    if (auto lipschitz = lipschitz_constant(node)) {
      if (*lipschitz == 1.0) return in[0];
      return emit("scale", {*in[0]}, {{"value", *lipschitz}});
    }
    if (op == "scale") return emit("scale", {*in[0]}, {{"value", std::fabs(node.attrs.at("value"))}});
    if (op == "add" || op == "sub") {
      if (in[0] && in[1]) return emit("add", {*in[0], *in[1]}, {});
      const std::string& only = in[0] ? *in[0] : *in[1];
      // Broadcast: a scale of a smaller shape than the output would leave it that shape.
      return shape(only) == out_shape ? std::optional(only) : std::nullopt;
    }
    if (op == "mul") {
      std::vector<std::string> terms;
      for (size_t i = 0; i < 2; ++i)
        if (in[i]) terms.push_back(emit("mul", {*in[i], magnitude(node.inputs[1 - i])}, {}));
      return terms.size() == 1 ? terms[0] : emit("add", {terms[0], terms[1]}, {});
    }
    if (op == "div") {
      if (!in[0] || in[1]) return std::nullopt;  // a divisor with an error is not bounded this simply
      return emit("div", {*in[0], magnitude(node.inputs[1])}, {});
    }
    if (op == "sum" || op == "mean") {
      const std::string root = emit("sqrt", {emit("sum", {emit("mul", {*in[0], *in[0]}, {})}, node.attrs)}, {});
      if (op == "sum") return root;
      const double n = static_cast<double>(numel(source_.tensor_shapes.at(node.inputs[0]))) / static_cast<double>(numel(out_shape));
      return emit("scale", {root}, {{"value", 1.0 / n}});
    }
    if (auto max_like = kMaxLike.find(op); max_like != kMaxLike.end()) return emit(max_like->second, {*in[0]}, node.attrs);
    if (op == "cat" || op == "stack") {
      std::vector<std::string> parts;  // an input without a scale has none: zeros of its shape
      for (size_t i = 0; i < in.size(); ++i) parts.push_back(in[i] ? *in[i] : emit("scale", {value_of(node.inputs[i])}, {{"value", 0.0}}));
      return emit(op, parts, node.attrs);
    }
    return std::nullopt;
  }

  void prune() {
    std::set<std::string> needed;
    for (const auto& output : graph_.problem.problem.outputs) needed.insert(output.name);
    std::vector<Node> kept;
    auto& nodes = graph_.problem.problem.graph;
    for (auto node = nodes.rbegin(); node != nodes.rend(); ++node) {
      if (!needed.contains(node->output)) {
        graph_.problem.tensor_shapes.erase(node->output);
        continue;
      }
      for (const auto& input : node->inputs) needed.insert(input);
      kept.push_back(*node);
    }
    nodes.assign(kept.rbegin(), kept.rend());
  }

  const ResolvedProblem& source_;
  ErrorScaleGraph graph_;
  std::map<std::string, std::string> scales_;   // source tensor → its error scale's tensor
  std::map<std::string, std::string> values_;   // source intermediate → its recomputed tensor
  std::map<std::string, std::string> squares_;  // source tensor → its square's tensor
  std::set<std::string> produced_;              // tensors a derived node writes
  std::set<std::string> taken_;                 // tensors already made outputs
};

}  // namespace

std::optional<ErrorScaleGraph> error_scale_graph(const ResolvedProblem& problem) { return Builder(problem).build(); }

}  // namespace kbv
