// ops/common/elementwise_host.hpp — the host face of an elementwise op, generated from its
// Definition: shape inference, cost, and the loop applying Definition::apply that is both the
// fp64 reference and the fp32 host baseline.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/common/elementwise.hpp"

namespace kbv::ops {

template <class Definition>
class UnaryHostOp final : public DefinedOp<UnaryHostOp<Definition>, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    op_support::check_input_count(Definition::name, Definition::inputs, inputs, 1, 1);
    op_support::check_dims_positive(Definition::name, inputs);
    read_params<Definition>(attrs);
    return inputs[0];
  }

  double flops(const std::vector<Shape>&, const Shape& output, const Attrs&) const override {
    return static_cast<double>(numel(output));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    op_support::check_args(*this, args);
    const Params<T> params = params_as<T>(read_params<Definition>(op_support::attrs_of(args)));
    const T* x = args.inputs[0];
    T* y = args.output;
    const int64_t count = numel(args.output_shape);
    for (int64_t i = 0; i < count; ++i) y[i] = Definition::template apply<T>(x[i], params);
  }
};

template <class Definition>
class BinaryHostOp final : public DefinedOp<BinaryHostOp<Definition>, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    op_support::check_input_count(Definition::name, Definition::inputs, inputs, 2, 2);
    op_support::check_dims_positive(Definition::name, inputs);
    read_params<Definition>(attrs);
    return op_support::broadcast_shapes(Definition::name, inputs[0], inputs[1]);
  }

  double flops(const std::vector<Shape>&, const Shape& output, const Attrs&) const override {
    return static_cast<double>(numel(output));
  }

  // Walks the output row by row (its last dim innermost); each input is read through its
  // broadcast strides, which are 0 along dims it broadcasts over.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    op_support::check_args(*this, args);
    const Params<T> params = params_as<T>(read_params<Definition>(op_support::attrs_of(args)));
    const Shape& out = args.output_shape;
    const std::vector<int64_t> stride_a = op_support::broadcast_strides(args.input_shapes[0], out);
    const std::vector<int64_t> stride_b = op_support::broadcast_strides(args.input_shapes[1], out);
    const T* a = args.inputs[0];
    const T* b = args.inputs[1];
    T* y = args.output;
    const size_t rank = out.size();
    const int64_t row = rank ? out.back() : 1;
    const int64_t step_a = rank ? stride_a.back() : 0;
    const int64_t step_b = rank ? stride_b.back() : 0;
    const int64_t rows = numel(out) / row;
    std::vector<int64_t> index(rank ? rank - 1 : 0, 0);  // position of the row in out
    for (int64_t r = 0; r < rows; ++r) {
      int64_t offset_a = 0, offset_b = 0;
      for (size_t d = 0; d < index.size(); ++d) {
        offset_a += index[d] * stride_a[d];
        offset_b += index[d] * stride_b[d];
      }
      T* y_row = y + r * row;
      for (int64_t j = 0; j < row; ++j)
        y_row[j] = Definition::template apply<T>(a[offset_a + j * step_a],
                                                 b[offset_b + j * step_b], params);
      for (size_t d = index.size(); d-- > 0;) {  // odometer over the leading dims
        if (++index[d] < out[d]) break;
        index[d] = 0;
      }
    }
  }
};

// The op's registry entry: one instance for the process.
template <class Definition>
const Op& elementwise_host_op() {
  require_elementwise<Definition>();
  if constexpr (is_unary<Definition>) {
    static const UnaryHostOp<Definition> op;
    return op;
  } else if constexpr (is_binary<Definition>) {
    static const BinaryHostOp<Definition> op;
    return op;
  }
}

}  // namespace kbv::ops
