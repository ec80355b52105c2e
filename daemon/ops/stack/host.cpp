// daemon/ops/stack/host.cpp — stack's plan (input i copied whole to index i of the new axis) and
// its host face (ops/common/layout_op.hpp).
#include <string>

#include "ops/common/layout_op.hpp"
#include "ops/stack/stack.hpp"

namespace kbv::ops::stack {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  layout::check_inputs(Definition::name, Definition::inputs, inputs, Definition::min_inputs,
                       Definition::max_inputs);
  const Shape& first = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i)
    if (inputs[i] != first)
      throw OpError(std::string(Definition::name) + ": input " + std::to_string(i) + " has shape " +
                    to_string(inputs[i]) + " and input 0 " + to_string(first) +
                    "; expected every input to have the same shape");
  const size_t axis = layout::insertion_axis(Definition::name, attrs, "axis",
                                             default_of<Definition>("axis"), first.size());
  Shape output = first;
  output.insert(output.begin() + static_cast<std::ptrdiff_t>(axis),
                static_cast<int64_t>(inputs.size()));
  std::vector<int64_t> out_strides = layout::contiguous_strides(output);
  const int64_t step = out_strides[axis];  // from one input's slab to the next
  out_strides.erase(out_strides.begin() + static_cast<std::ptrdiff_t>(axis));
  layout::CopyPlan plan{output, {}};
  const std::vector<int64_t> in_strides = layout::contiguous_strides(first);
  for (size_t i = 0; i < inputs.size(); ++i)
    plan.copies.push_back(
        layout::make_copy(i, first, in_strides, 0, out_strides, static_cast<int64_t>(i) * step));
  return plan;
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::stack
