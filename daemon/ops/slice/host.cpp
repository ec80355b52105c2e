// daemon/ops/slice/host.cpp — slice's plan (the output in order, read from `start` with the
// axis' stride times `step`) and its host face (ops/common/layout_op.hpp).
#include <algorithm>
#include <limits>
#include <string>

#include "ops/common/layout_op.hpp"
#include "ops/slice/slice.hpp"

namespace kbv::ops::slice {
namespace {

// A start or end as Python slicing reads it: negative counts from the end, then clamped to
// [0, extent].
int64_t slice_bound(int64_t value, int64_t extent) {
  return std::clamp<int64_t>(value < 0 ? value + extent : value, 0, extent);
}

}  // namespace

layout::CopyPlan plan(const std::vector<Shape>& inputs, const Attrs& attrs) {
  const Shape& x = layout::only_input<Definition>(inputs);
  const size_t axis = layout::axis_of<Definition>(attrs, "axis", x);
  constexpr int64_t kAnyBound = std::numeric_limits<int64_t>::min();
  const int64_t start_attr = layout::integer_of<Definition>(attrs, "start", kAnyBound);
  const int64_t end_attr = layout::integer_of<Definition>(attrs, "end", kAnyBound);
  const int64_t step = layout::integer_of<Definition>(attrs, "step", 1);
  const int64_t extent = x[axis];
  const int64_t start = slice_bound(start_attr, extent);
  const int64_t end = end_attr == 0 ? extent : slice_bound(end_attr, extent);
  if (end <= start)
    throw OpError(std::string(Definition::name) + ": start " + std::to_string(start_attr) +
                  " and end " + std::to_string(end_attr) + " select no element of axis " +
                  std::to_string(axis) + " (extent " + std::to_string(extent) + ") of " +
                  to_string(x) +
                  "; expected start before end once negative values count from "
                  "the axis' end (end 0 is the end)");
  std::vector<int64_t> strides = layout::contiguous_strides(x);
  const int64_t offset = start * strides[axis];
  Shape output = x;
  output[axis] = (end - start + step - 1) / step;
  // A step past the selection takes its first element only: clamped, so the stride product
  // cannot overflow (review: a step of 2^53 on a wide axis).
  strides[axis] *= output[axis] == 1 ? 1 : step;
  return layout::gather_plan(std::move(output), strides, offset);
}

const Op& host_op() {
  static const layout::LayoutOp<Definition, &plan> op;
  return op;
}

}  // namespace kbv::ops::slice
