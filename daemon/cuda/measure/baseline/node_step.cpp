// baseline/node_step.cpp — dispatch of graph nodes to the step that runs their op.
#include "measure/baseline/node_step.hpp"

#include <stdexcept>

#include "ops/registry.hpp"

namespace kbv::cuda::measure {

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
  const std::string& op = node.node.op;
  if (op == "matmul" || op == "bmm" || op == "linear") return make_blas_step(node, context);
  if (op == "conv2d") return make_conv_step(node, context);
  return make_kernel_step(node, context);
}

}  // namespace kbv::cuda::measure
