// daemon/ops/squeeze/host.cpp — squeeze's plan (one in-order copy: only the axes change) and its
// host face (ops/common/layout_op.hpp).
#include <string>

#include "ops/common/layout_op.hpp"
#include "ops/squeeze/squeeze.hpp"

namespace kbv::ops::squeeze {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  const Shape& x = layout::only_input<Definition>(inputs);
  const size_t axis = layout::axis_of<Definition>(attrs, "axis", x);
  if (x[axis] != 1)
    throw OpError(std::string(Definition::name) + ": axis " + std::to_string(axis) + " of " +
                  to_string(x) + " has extent " + std::to_string(x[axis]) +
                  "; expected an axis of extent 1 (PyTorch would leave the tensor unchanged)");
  Shape output = x;
  output.erase(output.begin() + static_cast<std::ptrdiff_t>(axis));
  return layout::reshape_plan(x, std::move(output));
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::squeeze
