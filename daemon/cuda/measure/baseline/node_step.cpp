// baseline/node_step.cpp — dispatch of graph nodes to the step that runs their op: the
// `make_baseline_step` face of the op's folder under daemon/ops/ (over the op list ops.cmake
// writes), after checking the node against the host op's shape inference.
#include "measure/baseline/node_step.hpp"

#include <map>
#include <stdexcept>

#include "ops/registry.hpp"

#define KBV_OP(OP_NAME)                                                                  \
  namespace kbv::ops::OP_NAME {                                                          \
  ::std::unique_ptr<::kbv::cuda::measure::NodeStep> make_baseline_step(                  \
      const ::kbv::cuda::measure::NodeContext&, ::kbv::cuda::measure::LibraryContext&);  \
  }
#include "ops/op_list.inc"
#undef KBV_OP

namespace kbv::cuda::measure {
namespace {

using StepFactory = std::unique_ptr<NodeStep> (*)(const NodeContext&, LibraryContext&);

const std::map<std::string, StepFactory, std::less<>>& step_factories() {
  static const std::map<std::string, StepFactory, std::less<>> factories = {
#define KBV_OP(OP_NAME) {#OP_NAME, &::kbv::ops::OP_NAME::make_baseline_step},
#include "ops/op_list.inc"
#undef KBV_OP
  };
  return factories;
}

}  // namespace

std::string NodeContext::where() const { return "node '" + node.name + "' (" + node.op + ")"; }

double NodeContext::attr(const std::string& name) const {
  if (auto it = node.attrs.find(name); it != node.attrs.end()) return it->second;
  if (const Op* op = find_op(node.op)) {
    const Attrs defaults = op->attribute_defaults();
    if (auto it = defaults.find(name); it != defaults.end()) return it->second;
  }
  throw std::invalid_argument(where() + " has no attribute '" + name + "' and its op no default");
}

std::unique_ptr<NodeStep> make_node_step(const NodeContext& node, LibraryContext& context) {
  const Op* host_op = find_op(node.node.op);
  const auto factory = step_factories().find(node.node.op);
  // Both tables come from the same op list, so an op is in both or in neither.
  if (host_op == nullptr || factory == step_factories().end())
    throw std::invalid_argument(node.where() + ": no op of that name");
  // The spec loader checked this already; a caller building nodes by hand gets the host op's
  // own error instead of a kernel running on shapes it does not expect.
  const Shape expected = host_op->infer_shape(node.input_shapes, node.node.attrs);
  if (expected != node.output_shape)
    throw std::invalid_argument(node.where() + ": output shape " + kbv::to_string(node.output_shape) +
                                " but the op gives " + kbv::to_string(expected));
  if ((node.output_scale != 1.0 || node.relu_epilogue) && node.node.op != "linear")
    throw std::invalid_argument(node.where() + ": only a linear node's baseline takes a folded output scale or ReLU");
  return factory->second(node, context);
}

}  // namespace kbv::cuda::measure
