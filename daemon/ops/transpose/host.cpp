// daemon/ops/transpose/host.cpp — transpose's plan (the output in order, read through the input's
// strides with two swapped) and its host face (ops/common/layout_op.hpp).
#include <utility>

#include "ops/common/layout_op.hpp"
#include "ops/transpose/transpose.hpp"

namespace kbv::ops::transpose {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  const Shape& x = layout::only_input<Definition>(inputs);
  const size_t a = layout::axis_of<Definition>(attrs, "axis0", x);
  const size_t b = layout::axis_of<Definition>(attrs, "axis1", x);
  Shape output = x;
  std::vector<int64_t> strides = layout::contiguous_strides(x);
  std::swap(output[a], output[b]);
  std::swap(strides[a], strides[b]);
  return layout::gather_plan(std::move(output), strides, 0);
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::transpose
