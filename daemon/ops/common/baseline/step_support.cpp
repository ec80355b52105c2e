// daemon/ops/common/baseline/step_support.cpp — attribute reading for the CUDA baseline faces.
#include "ops/common/baseline/step_support.hpp"

#include <cmath>
#include <stdexcept>

namespace kbv::ops::baseline {

int int_attr(const cuda::measure::NodeContext& node, const std::string& name, int min_value) {
  const double value = node.attr(name);
  // Attributes are counts and sizes; a billion is far beyond any tensor dimension kbv runs.
  constexpr double kLargestInteger = 1e9;
  if (value != std::floor(value) || value < min_value || value > kLargestInteger)
    throw std::invalid_argument(node.where() + ": " + name + " = " + std::to_string(value) +
                                " must be an integer >= " + std::to_string(min_value));
  return static_cast<int>(value);
}

size_t axis_index(const cuda::measure::NodeContext& node, const std::string& name) {
  const double value = node.attr(name);
  const size_t rank = node.input_shapes.at(0).size();
  const auto r = static_cast<double>(rank);
  if (value != std::floor(value) || value < -r || value >= r)
    throw std::invalid_argument(node.where() + ": " + name + " = " + std::to_string(value) +
                                " is not an axis of a rank-" + std::to_string(rank) + " input");
  return static_cast<size_t>(value < 0 ? value + r : value);
}

op_support::AxisSplit split_at_axis(const cuda::measure::NodeContext& node, const std::string& name) {
  return op_support::split_at_axis(node.input_shapes.at(0), axis_index(node, name));
}

op_support::AxisSplit split_at_reduced_axes(const cuda::measure::NodeContext& node) {
  const Shape& x = node.input_shapes.at(0);
  const Attrs& attrs = node.node.attrs;  // complete: the loader merged the op's defaults in
  const op_support::ReducedAxes axes =
      op_support::reduced_axes(node.node.op, attrs, x.size(), node.attr("axis"), attrs.count("count") ? 1 : 0);
  return op_support::split_at_axes(x, axes.axis, axes.count);
}

}  // namespace kbv::ops::baseline
