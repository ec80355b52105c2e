// daemon/ops/flatten/host.cpp — flatten's plan (one in-order copy: only the axes change) and its
// host face (ops/common/layout_op.hpp).
#include <string>

#include "ops/common/layout_op.hpp"
#include "ops/flatten/flatten.hpp"

namespace kbv::ops::flatten {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  const Shape& x = layout::only_input<Definition>(inputs);
  const size_t start = layout::axis_of<Definition>(attrs, "start_axis", x);
  const size_t end = layout::axis_of<Definition>(attrs, "end_axis", x);
  if (start > end)
    throw OpError(std::string(Definition::name) + ": start_axis is axis " + std::to_string(start) +
                  " and end_axis axis " + std::to_string(end) + " of " + to_string(x) +
                  "; expected start_axis at or before end_axis (torch.flatten)");
  Shape output(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(start));
  int64_t merged = 1;
  for (size_t d = start; d <= end; ++d) merged *= x[d];
  output.push_back(merged);
  output.insert(output.end(), x.begin() + static_cast<std::ptrdiff_t>(end) + 1, x.end());
  return layout::reshape_plan(x, std::move(output));
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::flatten
