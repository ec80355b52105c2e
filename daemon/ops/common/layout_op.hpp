// ops/common/layout_op.hpp — the host face of a layout op from its plan function
// (`CopyPlan plan(inputs, attrs)` in ops/<name>/host.cpp, declared in its <name>.hpp): shape
// inference is the plan's output shape, the cost is 0 FLOPs, and compute<T> runs the plan's
// copies (ops/common/strided_copy.hpp), the fp64 reference and the fp32 host baseline alike.
// The op's CUDA faces run the same plan (ops/common/reference/strided_copy_f64.hpp,
// ops/common/baseline/strided_copy_step.hpp).
#pragma once

#include <string>
#include <vector>

#include "ops/common/definition.hpp"
#include "ops/common/strided_copy.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops::layout {

using PlanFunction = CopyPlan (*)(const std::vector<Shape>& inputs, const Attrs& attrs);

// The input of a one-input layout op, checked (check_inputs).
template <class Definition>
const Shape& only_input(const std::vector<Shape>& inputs) {
  check_inputs(Definition::name, Definition::inputs, inputs, 1, 1);
  return inputs[0];
}

// Axis attribute `name` of a tensor shaped `x` (the op's default when absent), in [0, rank).
template <class Definition>
size_t axis_of(const Attrs& attrs, const std::string& name, const Shape& x) {
  return op_support::axis_attr(Definition::name, attrs, name, default_of<Definition>(name),
                               x.size());
}

// Integer attribute `name` (the op's default when absent), at least `min_value`.
template <class Definition>
int64_t integer_of(const Attrs& attrs, const std::string& name, int64_t min_value) {
  return op_support::int_attr(Definition::name, attrs, name, default_of<Definition>(name),
                              min_value);
}

template <class Definition, PlanFunction kPlan>
class LayoutOp final : public DefinedOp<LayoutOp<Definition, kPlan>, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    Shape output = kPlan(inputs, attrs).output;
    check_output_rank(Definition::name, output);
    return output;
  }

  // They move bytes and compute nothing: the physical floor is their compulsory bytes alone.
  double flops(const std::vector<Shape>&, const Shape&, const Attrs&) const override { return 0; }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    op_support::check_args(*this, args);
    const CopyPlan plan = kPlan(args.input_shapes, op_support::attrs_of(args));
    for (const StridedCopy& copy : plan.copies)
      copy_on_host(copy, args.inputs[static_cast<size_t>(copy.input)], args.output);
  }
};

}  // namespace kbv::ops::layout
