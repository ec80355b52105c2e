// ops/binary.cpp — elementwise ops of two inputs with numpy broadcasting: add, mul.
#include "ops/builtin_ops.hpp"
#include "ops/op_support.hpp"

namespace kbv::builtin_ops {
namespace {

using namespace op_support;

// Shared shape, cost and loop of a broadcasting two-input op. Derived supplies name() and
// static T apply(T a, T b).
template <class Derived>
class BinaryOp : public TypedOp<Derived> {
 public:
  size_t min_inputs() const override { return 2; }
  size_t max_inputs() const override { return 2; }
  Attrs attribute_defaults() const override { return {}; }
  PrecisionClass precision_class() const override { return PrecisionClass::exact; }

  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs&) const override {
    check_input_count(this->name(), "a, b", inputs, 2, 2);
    check_dims_positive(this->name(), inputs);
    return broadcast_shapes(this->name(), inputs[0], inputs[1]);
  }

  // One operation per output element.
  double flops(const std::vector<Shape>&, const Shape& output, const Attrs&) const override {
    return static_cast<double>(numel(output));
  }

  // Walks the output row by row (its last dim innermost); each input is read through its
  // broadcast strides, which are 0 along dims it broadcasts over.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const Shape& out = args.output_shape;
    const std::vector<int64_t> stride_a = broadcast_strides(args.input_shapes[0], out);
    const std::vector<int64_t> stride_b = broadcast_strides(args.input_shapes[1], out);
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
        y_row[j] = Derived::apply(a[offset_a + j * step_a], b[offset_b + j * step_b]);
      for (size_t d = index.size(); d-- > 0;) {  // odometer over the leading dims
        if (++index[d] < out[d]) break;
        index[d] = 0;
      }
    }
  }
};

class AddOp : public BinaryOp<AddOp> {
 public:
  std::string_view name() const override { return "add"; }
  template <class T>
  static T apply(T a, T b) {
    return a + b;
  }
};

class MulOp : public BinaryOp<MulOp> {
 public:
  std::string_view name() const override { return "mul"; }
  template <class T>
  static T apply(T a, T b) {
    return a * b;
  }
};

}  // namespace

const Op& add() {
  static const AddOp op;
  return op;
}
const Op& mul() {
  static const MulOp op;
  return op;
}

}  // namespace kbv::builtin_ops
