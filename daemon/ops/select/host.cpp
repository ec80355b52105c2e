// daemon/ops/select/host.cpp — select's plan (the output in order, read from one index of the
// axis) and its host face (ops/common/layout_op.hpp).
#include <string>

#include "ops/common/layout_op.hpp"
#include "ops/select/select.hpp"

namespace kbv::ops::select {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  const Shape& x = layout::only_input<Definition>(inputs);
  const size_t axis = layout::axis_of<Definition>(attrs, "axis", x);
  const int64_t extent = x[axis];
  const int64_t index = layout::integer_of<Definition>(attrs, "index", -extent);
  if (index >= extent)
    throw OpError(std::string(Definition::name) + ": attribute index is " + std::to_string(index) +
                  " for axis " + std::to_string(axis) + " of extent " + std::to_string(extent) +
                  " in " + to_string(x) + "; expected an index in [" + std::to_string(-extent) +
                  ", " + std::to_string(extent - 1) + "]");
  std::vector<int64_t> strides = layout::contiguous_strides(x);
  const int64_t offset = (index < 0 ? index + extent : index) * strides[axis];
  Shape output = x;
  output.erase(output.begin() + static_cast<std::ptrdiff_t>(axis));
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(axis));
  return layout::gather_plan(std::move(output), strides, offset);
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::select
