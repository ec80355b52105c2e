// daemon/ops/flip/host.cpp — flip's plan (the output in order, read with the axis' stride
// negated from its last element) and its host face (ops/common/layout_op.hpp).
#include "ops/common/layout_op.hpp"
#include "ops/flip/flip.hpp"

namespace kbv::ops::flip {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  const Shape& x = layout::only_input<Definition>(inputs);
  const size_t axis = layout::axis_of<Definition>(attrs, "axis", x);
  std::vector<int64_t> strides = layout::contiguous_strides(x);
  const int64_t offset = (x[axis] - 1) * strides[axis];
  strides[axis] = -strides[axis];
  return layout::gather_plan(x, strides, offset);
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::flip
