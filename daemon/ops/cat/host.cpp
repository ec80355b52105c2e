// daemon/ops/cat/host.cpp — cat's plan (each input copied whole into its slab of the output, at
// its offset along the axis) and its host face (ops/common/layout_op.hpp).
#include <string>

#include "ops/cat/cat.hpp"
#include "ops/common/layout_op.hpp"

namespace kbv::ops::cat {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  layout::check_inputs(Definition::name, Definition::inputs, inputs, Definition::min_inputs,
                       Definition::max_inputs);
  const Shape& first = inputs[0];
  const size_t axis = layout::axis_of<Definition>(attrs, "axis", first);
  Shape output = first;
  output[axis] = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    bool matches = inputs[i].size() == first.size();
    for (size_t d = 0; matches && d < first.size(); ++d)
      matches = d == axis || inputs[i][d] == first[d];
    if (!matches)
      throw OpError(std::string(Definition::name) + ": input " + std::to_string(i) + " has shape " +
                    to_string(inputs[i]) + " and input 0 " + to_string(first) +
                    "; expected equal ranks and equal dims except along axis " +
                    std::to_string(axis));
    output[axis] += inputs[i][axis];
  }
  layout::CopyPlan plan{output, {}};
  const std::vector<int64_t> out_strides = layout::contiguous_strides(output);
  int64_t along = 0;  // where input i starts along the axis
  for (size_t i = 0; i < inputs.size(); ++i) {
    plan.copies.push_back(layout::make_copy(i, inputs[i], layout::contiguous_strides(inputs[i]), 0,
                                            out_strides, along * out_strides[axis]));
    along += inputs[i][axis];
  }
  return plan;
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::cat
