// daemon/ops/unflatten/host.cpp — unflatten's plan (one in-order copy: only the axes change) and
// its host face (ops/common/layout_op.hpp).
#include <cstdlib>
#include <limits>
#include <string>

#include "ops/common/layout_op.hpp"
#include "ops/unflatten/unflatten.hpp"

namespace kbv::ops::unflatten {

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  const Shape& x = layout::only_input<Definition>(inputs);
  const size_t axis = layout::axis_of<Definition>(attrs, "axis", x);
  const int64_t size =
      layout::integer_of<Definition>(attrs, "size", std::numeric_limits<int64_t>::min() + 1);
  const int64_t extent = x[axis];
  if (size == 0 || extent % std::abs(size) != 0)
    throw OpError(std::string(Definition::name) + ": attribute size is " + std::to_string(size) +
                  " for axis " + std::to_string(axis) + " of extent " + std::to_string(extent) +
                  " in " + to_string(x) +
                  "; expected a nonzero size whose magnitude divides the "
                  "extent (s splits it into [s, E/s], -s into [E/s, s])");
  const int64_t leading = size > 0 ? size : extent / -size;
  Shape output(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(axis));
  output.push_back(leading);
  output.push_back(extent / leading);
  output.insert(output.end(), x.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.end());
  return layout::reshape_plan(x, std::move(output));
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::unflatten
