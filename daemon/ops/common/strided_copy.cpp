// daemon/ops/common/strided_copy.cpp — building the strided copies of layout ops: strides,
// merged boxes, the gather and reshape plans, and the input checks they share.
#include "ops/common/strided_copy.hpp"

#include <string>

#include "ops/op_support.hpp"

namespace kbv::ops::layout {
namespace {

void check_rank_limit(std::string_view op, std::string_view what, const Shape& shape) {
  if (shape.size() > static_cast<size_t>(kMaxRank))
    throw OpError(std::string(op) + ": " + std::string(what) + " has shape " + to_string(shape) +
                  " (rank " + std::to_string(shape.size()) + "); expected rank at most " +
                  std::to_string(kMaxRank) + ", the most a kbv tensor has");
}

}  // namespace

int64_t element_count(const StridedCopy& copy) {
  int64_t count = 1;
  for (int d = 0; d < copy.rank; ++d) count *= copy.dims[d];
  return count;
}

std::vector<int64_t> contiguous_strides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

StridedCopy make_copy(size_t input, const Shape& dims, const std::vector<int64_t>& in_strides,
                      int64_t in_offset, const std::vector<int64_t>& out_strides,
                      int64_t out_offset) {
  if (dims.size() > static_cast<size_t>(kMaxRank) || in_strides.size() != dims.size() ||
      out_strides.size() != dims.size())
    throw OpError("strided copy: a box of rank " + std::to_string(dims.size()) + " with " +
                  std::to_string(in_strides.size()) + " input and " +
                  std::to_string(out_strides.size()) + " output strides; expected one stride " +
                  "each per dim and rank at most " + std::to_string(kMaxRank));
  StridedCopy copy;
  copy.input = static_cast<int32_t>(input);
  copy.in_offset = in_offset;
  copy.out_offset = out_offset;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) continue;  // index 0 only: no stride to walk
    const int outer = copy.rank - 1;
    // The dim outside this one steps over exactly this one's extent on both sides: one dim.
    if (outer >= 0 && copy.in_strides[outer] == in_strides[d] * dims[d] &&
        copy.out_strides[outer] == out_strides[d] * dims[d]) {
      copy.dims[outer] *= dims[d];
      copy.in_strides[outer] = in_strides[d];
      copy.out_strides[outer] = out_strides[d];
      continue;
    }
    copy.dims[copy.rank] = dims[d];
    copy.in_strides[copy.rank] = in_strides[d];
    copy.out_strides[copy.rank] = out_strides[d];
    ++copy.rank;
  }
  return copy;
}

CopyPlan gather_plan(Shape output, const std::vector<int64_t>& in_strides, int64_t in_offset) {
  CopyPlan plan;
  plan.copies.push_back(make_copy(0, output, in_strides, in_offset, contiguous_strides(output), 0));
  plan.output = std::move(output);
  return plan;
}

CopyPlan reshape_plan(const Shape& input, Shape output) {
  CopyPlan plan;
  plan.copies.push_back(make_copy(0, {numel(input)}, {1}, 0, {1}, 0));
  plan.output = std::move(output);
  return plan;
}

bool is_whole_copy(const CopyPlan& plan) {
  if (plan.copies.size() != 1) return false;
  const StridedCopy& copy = plan.copies[0];
  const bool in_order =
      copy.rank == 0 || (copy.rank == 1 && copy.in_strides[0] == 1 && copy.out_strides[0] == 1);
  return in_order && copy.input == 0 && copy.in_offset == 0 && copy.out_offset == 0 &&
         element_count(copy) == numel(plan.output);
}

void check_inputs(std::string_view op, std::string_view signature, const std::vector<Shape>& inputs,
                  size_t min_count, size_t max_count) {
  op_support::check_input_count(op, signature, inputs, min_count, max_count);
  op_support::check_dims_positive(op, inputs);
  for (size_t i = 0; i < inputs.size(); ++i)
    check_rank_limit(op, "input " + std::to_string(i), inputs[i]);
}

void check_output_rank(std::string_view op, const Shape& output) {
  check_rank_limit(op, "the output", output);
}

size_t insertion_axis(std::string_view op, const Attrs& attrs, const std::string& name,
                      double fallback, size_t rank) {
  const auto signed_rank = static_cast<int64_t>(rank);
  const int64_t axis = op_support::int_attr(op, attrs, name, fallback, -signed_rank - 1);
  if (axis > signed_rank)
    throw OpError(std::string(op) + ": attribute " + name + " is " + std::to_string(axis) +
                  " for an input of rank " + std::to_string(rank) + "; expected an axis in [" +
                  std::to_string(-signed_rank - 1) + ", " + std::to_string(signed_rank) +
                  "] of the rank-" + std::to_string(rank + 1) + " output");
  return static_cast<size_t>(axis < 0 ? axis + signed_rank + 1 : axis);
}

}  // namespace kbv::ops::layout
