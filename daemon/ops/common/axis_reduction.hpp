// ops/common/axis_reduction.hpp — the host face shared by reductions over adjacent axes (sum,
// mean, amax, amin, logsumexp, norm): shape inference with `axis`, `count` (when the op has it)
// and `keepdim`, and reduce_lines(), the loop that is both the fp64 reference and the fp32 host
// baseline. Derived supplies flops() and
//   template <class T> void reduce(const T* x, T* y, const op_support::AxisSplit& split,
//                                  const Attrs& attrs) const;
// which calls reduce_lines() (once, or twice for a two-pass reduction such as logsumexp).
#pragma once

#include <algorithm>
#include <vector>

#include "ops/common/definition.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

// For every line (o, i) of [outer, extent, inner], line = o·inner + i: acc = init, then
// add(acc, x[o, a, i], line) for a = 0 … extent − 1, then y[line] = finish(acc, line). Whole rows
// of `inner` values are accumulated at once, so every read is contiguous; one accumulator per
// output element, in T.
template <class T, class Add, class Finish>
void reduce_lines(const T* x, T* y, const op_support::AxisSplit& split, T init, Add add, Finish finish) {
  const auto inner = static_cast<size_t>(split.inner);
  std::vector<T> acc(inner);
  for (int64_t o = 0; o < split.outer; ++o) {
    const T* slab = x + o * split.extent * split.inner;
    const int64_t first_line = o * split.inner;
    std::fill(acc.begin(), acc.end(), init);
    for (int64_t a = 0; a < split.extent; ++a)
      for (size_t i = 0; i < inner; ++i)
        add(acc[i], slab[a * split.inner + static_cast<int64_t>(i)], first_line + static_cast<int64_t>(i));
    for (size_t i = 0; i < inner; ++i)
      y[first_line + static_cast<int64_t>(i)] = finish(acc[i], first_line + static_cast<int64_t>(i));
  }
}

// The default of Definition's `count` attribute, or 0 when it has none (one axis).
template <class Definition>
constexpr double count_default_of() {
  for (const Attribute& attribute : Definition::attributes)
    if (attribute.name == "count") return attribute.default_value;
  return 0;
}

template <class Definition>
op_support::ReducedAxes reduced_axes_of(const Attrs& attrs, size_t rank) {
  return op_support::reduced_axes(Definition::name, attrs, rank, default_of<Definition>("axis"),
                                  count_default_of<Definition>());
}

template <class Derived, class Definition>
class AxisReductionOp : public DefinedOp<Derived, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    using namespace op_support;
    check_input_count(Definition::name, Definition::inputs, inputs, 1, 1);
    check_dims_positive(Definition::name, inputs);
    const ReducedAxes axes = reduced_axes_of<Definition>(attrs, inputs[0].size());
    const bool keepdim = flag_attr(Definition::name, attrs, "keepdim", default_of<Definition>("keepdim"));
    return reduced_shape(inputs[0], axes, keepdim);
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    using namespace op_support;
    check_args(*this, args);
    const Shape& shape = args.input_shapes[0];
    const ReducedAxes axes = reduced_axes_of<Definition>(attrs_of(args), shape.size());
    static_cast<const Derived&>(*this).reduce(args.inputs[0], args.output,
                                              split_at_axes(shape, axes.axis, axes.count), attrs_of(args));
  }
};

}  // namespace kbv::ops
