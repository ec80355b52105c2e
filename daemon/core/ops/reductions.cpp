// ops/reductions.cpp — sum and mean over one axis, keeping it as size 1 or dropping it.
#include <algorithm>
#include <vector>

#include "ops/builtin_ops.hpp"
#include "ops/op_support.hpp"

namespace kbv::builtin_ops {
namespace {

using namespace op_support;

// torch.sum/torch.mean need a dim; kbv defaults to the last one, kept as size 1.
constexpr double kDefaultAxis = -1;
constexpr double kDefaultKeepdim = 1;

// Shared shape and loop of a reduction along one axis. Derived supplies name(),
// finish(sum, extent) and flops().
template <class Derived>
class AxisReduction : public TypedOp<Derived> {
 public:
  size_t min_inputs() const override { return 1; }
  size_t max_inputs() const override { return 1; }
  Attrs attribute_defaults() const override {
    return {{"axis", kDefaultAxis}, {"keepdim", kDefaultKeepdim}};
  }
  PrecisionClass precision_class() const override { return PrecisionClass::exact; }

  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    check_input_count(this->name(), "x", inputs, 1, 1);
    check_dims_positive(this->name(), inputs);
    Shape out = inputs[0];
    size_t axis = axis_attr(this->name(), attrs, "axis", kDefaultAxis, out.size());
    if (flag_attr(this->name(), attrs, "keepdim", kDefaultKeepdim))
      out[axis] = 1;
    else
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(axis));
    return out;
  }

  // Accumulates whole rows of `inner` values so every read is contiguous; one accumulator per
  // output element, in T.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const Shape& shape = args.input_shapes[0];
    const AxisSplit split = split_at_axis(
        shape, axis_attr(this->name(), attrs_of(args), "axis", kDefaultAxis, shape.size()));
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

class SumOp : public AxisReduction<SumOp> {
 public:
  std::string_view name() const override { return "sum"; }
  template <class T>
  static T finish(T sum, int64_t) {
    return sum;
  }
  // extent − 1 additions per output: numel(in) − numel(out), exact for any summation order.
  double flops(const std::vector<Shape>& inputs, const Shape& output,
               const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)) - numel(output));
  }
};

class MeanOp : public AxisReduction<MeanOp> {
 public:
  std::string_view name() const override { return "mean"; }
  template <class T>
  static T finish(T sum, int64_t extent) {
    return sum / static_cast<T>(extent);
  }
  // The sum's extent − 1 additions plus one division per output: numel(in).
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)));
  }
};

}  // namespace

const Op& sum() {
  static const SumOp op;
  return op;
}
const Op& mean() {
  static const MeanOp op;
  return op;
}

}  // namespace kbv::builtin_ops
