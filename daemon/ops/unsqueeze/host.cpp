// daemon/ops/unsqueeze/host.cpp — unsqueeze's plan (one in-order copy: only the axes change) and
// its host face (ops/common/layout_op.hpp).
#include "ops/common/layout_op.hpp"
#include "ops/unsqueeze/unsqueeze.hpp"

namespace kbv::ops::unsqueeze {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  const Shape& x = layout::only_input<Definition>(inputs);
  const size_t axis = layout::insertion_axis(Definition::name, attrs, "axis",
                                             default_of<Definition>("axis"), x.size());
  Shape output = x;
  output.insert(output.begin() + static_cast<std::ptrdiff_t>(axis), 1);
  return layout::reshape_plan(x, std::move(output));
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::unsqueeze
