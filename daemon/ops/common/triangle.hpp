// ops/common/triangle.hpp — what tril and triu share: which element of the last two axes is kept
// (host and device), and the host face: shape inference (rank ≥ 2, integer `diagonal`) and the
// masked copy that is both the fp64 reference and the fp32 host baseline. kLower picks tril.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "ops/common/definition.hpp"
#include "ops/common/scalar_math.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

// Element (row, column) of a matrix survives tril when column − row ≤ diagonal, triu when
// column − row ≥ diagonal (torch.tril/triu); the others are written as the `fill` attribute (0 by
// default, as torch.tril/triu; −inf for a causal attention mask).
KBV_HOST_DEVICE bool triangle_keeps(bool lower, int64_t row, int64_t column, int64_t diagonal) {
  return lower ? column - row <= diagonal : column - row >= diagonal;
}

template <class Derived, class Definition, bool kLower>
class TriangleOp : public DefinedOp<Derived, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    using namespace op_support;
    check_input_count(Definition::name, Definition::inputs, inputs, 1, 1);
    check_dims_positive(Definition::name, inputs);
    if (inputs[0].size() < 2)
      throw OpError(std::string(Definition::name) + ": input x has shape " + to_string(inputs[0]) +
                    "; expected rank 2 or more ([..., rows, columns])");
    diagonal(attrs);
    fill(attrs);
    return inputs[0];
  }

  // A masked copy: no arithmetic.
  double flops(const std::vector<Shape>&, const Shape&, const Attrs&) const override { return 0; }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    op_support::check_args(*this, args);
    const Shape& shape = args.input_shapes[0];
    const int64_t rows = shape[shape.size() - 2], columns = shape.back();
    const int64_t offset = diagonal(op_support::attrs_of(args));
    const T dropped = static_cast<T>(fill(op_support::attrs_of(args)));
    const int64_t count = numel(shape);
    for (int64_t i = 0; i < count; ++i)
      args.output[i] = triangle_keeps(kLower, (i / columns) % rows, i % columns, offset) ? args.inputs[0][i] : dropped;
  }

  // What the dropped elements become: any number but NaN (−inf masks a softmax's logits).
  static double fill(const Attrs& attrs) {
    return op_support::bound_attr(Definition::name, attrs, "fill", default_of<Definition>("fill"));
  }

 private:
  static int64_t diagonal(const Attrs& attrs) {
    return op_support::int_attr(Definition::name, attrs, "diagonal", default_of<Definition>("diagonal"),
                                std::numeric_limits<int32_t>::min());
  }
};

}  // namespace kbv::ops
