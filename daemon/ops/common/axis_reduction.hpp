// ops/common/axis_reduction.hpp — the host face shared by reductions along one axis (sum, mean):
// shape inference with `axis` and `keepdim`, and the loop that is both the fp64 reference and
// the fp32 host baseline. Derived supplies `template <class T> static T finish(T sum, int64_t
// extent)` and flops().
#pragma once

#include <algorithm>
#include <vector>

#include "ops/common/definition.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

template <class Derived, class Definition>
class AxisReductionOp : public DefinedOp<Derived, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    using namespace op_support;
    check_input_count(Definition::name, Definition::inputs, inputs, 1, 1);
    check_dims_positive(Definition::name, inputs);
    Shape out = inputs[0];
    const size_t axis = axis_attr(Definition::name, attrs, "axis", default_of<Definition>("axis"), out.size());
    if (flag_attr(Definition::name, attrs, "keepdim", default_of<Definition>("keepdim")))
      out[axis] = 1;
    else
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(axis));
    return out;
  }

  // Accumulates whole rows of `inner` values so every read is contiguous; one accumulator per
  // output element, in T.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    using namespace op_support;
    check_args(*this, args);
    const Shape& shape = args.input_shapes[0];
    const AxisSplit split = split_at_axis(
        shape, axis_attr(Definition::name, attrs_of(args), "axis", default_of<Definition>("axis"), shape.size()));
    const auto inner = static_cast<size_t>(split.inner);
    std::vector<T> acc(inner);
    for (int64_t o = 0; o < split.outer; ++o) {
      const T* x = args.inputs[0] + o * split.extent * split.inner;
      std::fill(acc.begin(), acc.end(), T(0));
      for (int64_t a = 0; a < split.extent; ++a)
        for (size_t i = 0; i < inner; ++i) acc[i] += x[a * split.inner + i];
      T* y = args.output + o * split.inner;
      for (size_t i = 0; i < inner; ++i) y[i] = Derived::finish(acc[i], split.extent);
    }
  }
};

}  // namespace kbv::ops
