// daemon/ops/op_support.cpp — validation, axis and broadcasting helpers shared by the primitive
// ops.
#include "ops/op_support.hpp"

#include <algorithm>
#include <cmath>

namespace kbv::op_support {
namespace {

std::string prefix(std::string_view op) { return std::string(op) + ": "; }

}  // namespace

std::string format_number(double value) {
  std::string text = std::to_string(value);
  // Trim trailing zeros of std::to_string's fixed six decimals ("2.500000" -> "2.5").
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

void check_input_count(std::string_view op, std::string_view signature,
                       const std::vector<Shape>& inputs, size_t min_count, size_t max_count) {
  if (inputs.size() >= min_count && inputs.size() <= max_count) return;
  std::string expected = min_count == max_count
                             ? std::to_string(min_count)
                             : std::to_string(min_count) + " to " + std::to_string(max_count);
  throw OpError(prefix(op) + "got " + std::to_string(inputs.size()) + " inputs; expected " +
                expected + " (" + std::string(signature) + ")");
}

void check_rank(std::string_view op, std::string_view input, const Shape& shape, size_t rank,
                std::string_view layout) {
  if (shape.size() == rank) return;
  throw OpError(prefix(op) + "input " + std::string(input) + " has shape " + to_string(shape) +
                " (rank " + std::to_string(shape.size()) + "); expected rank " +
                std::to_string(rank) + " " + std::string(layout));
}

void check_dims_positive(std::string_view op, const std::vector<Shape>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i)
    for (int64_t dim : inputs[i])
      if (dim < 1)
        throw OpError(prefix(op) + "input " + std::to_string(i) + " has shape " +
                      to_string(inputs[i]) + "; expected every dimension to be at least 1");
}

const Attrs& no_attrs() {
  static const Attrs empty;
  return empty;
}

double real_attr(std::string_view op, const Attrs& attrs, const std::string& name,
                 double fallback) {
  auto it = attrs.find(name);
  double value = it == attrs.end() ? fallback : it->second;
  if (!std::isfinite(value))
    throw OpError(prefix(op) + "attribute " + name + " is " + format_number(value) +
                  "; expected a finite number");
  return value;
}

double bound_attr(std::string_view op, const Attrs& attrs, const std::string& name,
                  double fallback) {
  auto it = attrs.find(name);
  double value = it == attrs.end() ? fallback : it->second;
  if (std::isnan(value))
    throw OpError(prefix(op) + "attribute " + name + " is NaN; expected a number (±inf for no bound)");
  return value;
}

int64_t int_attr(std::string_view op, const Attrs& attrs, const std::string& name,
                 double fallback, int64_t min_value) {
  double value = real_attr(op, attrs, name, fallback);
  // Largest magnitude below which every double integer is exact and fits int64 (2^53).
  constexpr double kExactIntegerLimit = 9007199254740992.0;
  if (value != std::floor(value) || std::fabs(value) > kExactIntegerLimit)
    throw OpError(prefix(op) + "attribute " + name + " is " + format_number(value) +
                  "; expected an integer");
  auto integer = static_cast<int64_t>(value);
  if (integer < min_value)
    throw OpError(prefix(op) + "attribute " + name + " is " + std::to_string(integer) +
                  "; expected an integer >= " + std::to_string(min_value));
  return integer;
}

int64_t bounded_product(std::string_view op, const std::string& what, int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product) || product > kMaxSpatialExtent || product < -kMaxSpatialExtent)
    throw OpError(prefix(op) + what + " is beyond 2^40 (" + std::to_string(a) + " * " + std::to_string(b) +
                  "); expected a reach no tensor of a problem exceeds");
  return product;
}

int64_t bounded_extent(std::string_view op, const std::string& name, int64_t value) {
  if (value > kMaxSpatialExtent)
    throw OpError(prefix(op) + "attribute " + name + " is " + std::to_string(value) + "; expected at most 2^40");
  return value;
}

bool flag_attr(std::string_view op, const Attrs& attrs, const std::string& name,
               double fallback) {
  double value = real_attr(op, attrs, name, fallback);
  if (value != 0 && value != 1)
    throw OpError(prefix(op) + "attribute " + name + " is " + format_number(value) +
                  "; expected 0 (false) or 1 (true)");
  return value == 1;
}

size_t axis_attr(std::string_view op, const Attrs& attrs, const std::string& name,
                 double fallback, size_t rank) {
  auto signed_rank = static_cast<int64_t>(rank);
  int64_t axis = int_attr(op, attrs, name, fallback, -signed_rank);
  if (rank == 0 || axis >= signed_rank)
    throw OpError(prefix(op) + "attribute " + name + " is " + std::to_string(axis) +
                  " for an input of rank " + std::to_string(rank) + "; expected an axis in [" +
                  std::to_string(-signed_rank) + ", " + std::to_string(signed_rank - 1) + "]");
  return static_cast<size_t>(axis < 0 ? axis + signed_rank : axis);
}

AxisSplit split_at_axis(const Shape& shape, size_t axis) {
  AxisSplit split;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < axis) split.outer *= shape[d];
    else if (d == axis) split.extent = shape[d];
    else split.inner *= shape[d];
  }
  return split;
}

AxisSplit split_at_axes(const Shape& shape, size_t axis, size_t count) {
  AxisSplit split;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < axis) split.outer *= shape[d];
    else if (d < axis + count) split.extent *= shape[d];
    else split.inner *= shape[d];
  }
  return split;
}

ReducedAxes reduced_axes(std::string_view op, const Attrs& attrs, size_t rank, double axis_default,
                         double count_default) {
  ReducedAxes axes;
  axes.axis = axis_attr(op, attrs, "axis", axis_default, rank);
  if (count_default <= 0) return axes;
  axes.count = static_cast<size_t>(int_attr(op, attrs, "count", count_default, 1));
  if (axes.axis + axes.count > rank)
    throw OpError(prefix(op) + "attribute count is " + std::to_string(axes.count) + " from axis " +
                  std::to_string(axes.axis) + " of an input of rank " + std::to_string(rank) +
                  "; expected count <= " + std::to_string(rank - axes.axis) +
                  " (the reduced axes must exist)");
  return axes;
}

Shape reduced_shape(const Shape& shape, const ReducedAxes& axes, bool keepdim) {
  Shape out;
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = d >= axes.axis && d < axes.axis + axes.count;
    if (!reduced) out.push_back(shape[d]);
    else if (keepdim) out.push_back(1);
  }
  return out;
}

Shape broadcast_shapes(std::string_view op, const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t k = 0; k < rank; ++k) {  // k counts from the trailing dim
    int64_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
    int64_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1)
      throw OpError(prefix(op) + "shapes " + to_string(a) + " and " + to_string(b) +
                    " do not broadcast: trailing dim " + std::to_string(k) + " is " +
                    std::to_string(da) + " vs " + std::to_string(db) +
                    "; expected equal sizes or 1 (numpy rules, aligned on the right)");
    out[rank - 1 - k] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> broadcast_strides(const Shape& shape, const Shape& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t stride = 1;
  for (size_t k = 0; k < shape.size(); ++k) {  // k counts from the trailing dim
    size_t d = shape.size() - 1 - k;
    if (shape[d] != 1) strides[out.size() - 1 - k] = stride;
    stride *= shape[d];
  }
  return strides;
}

}  // namespace kbv::op_support
