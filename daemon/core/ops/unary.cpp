// ops/unary.cpp — elementwise ops of one input: relu, gelu, leaky_relu, sigmoid, tanh, scale.
#include <cmath>

#include "ops/builtin_ops.hpp"
#include "ops/op_support.hpp"

namespace kbv::builtin_ops {
namespace {

using namespace op_support;

// PyTorch's defaults: torch.nn.LeakyReLU(negative_slope=0.01); scale multiplies by 1.
constexpr double kDefaultNegativeSlope = 0.01;
constexpr double kDefaultScale = 1.0;

// Shared shape, cost and loop of a one-input elementwise op. Derived supplies name(),
// attribute_defaults(), check_attrs() and function<T>(attrs), a callable T -> T.
template <class Derived>
class UnaryOp : public TypedOp<Derived> {
 public:
  size_t min_inputs() const override { return 1; }
  size_t max_inputs() const override { return 1; }
  PrecisionClass precision_class() const override { return PrecisionClass::exact; }

  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    check_input_count(this->name(), "x", inputs, 1, 1);
    check_dims_positive(this->name(), inputs);
    derived().check_attrs(attrs);
    return inputs[0];
  }

  // One operation per output element: the function itself (max, a multiply, erf, exp…) is
  // counted once, a lower bound whatever its real instruction count.
  double flops(const std::vector<Shape>&, const Shape& output, const Attrs&) const override {
    return static_cast<double>(numel(output));
  }

  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    auto function = derived().template function<T>(attrs_of(args));
    const T* x = args.inputs[0];
    T* y = args.output;
    const int64_t count = numel(args.output_shape);
    for (int64_t i = 0; i < count; ++i) y[i] = function(x[i]);
  }

 private:
  const Derived& derived() const { return static_cast<const Derived&>(*this); }
};

class ReluOp : public UnaryOp<ReluOp> {
 public:
  std::string_view name() const override { return "relu"; }
  Attrs attribute_defaults() const override { return {}; }
  void check_attrs(const Attrs&) const {}
  template <class T>
  auto function(const Attrs&) const {
    // NaN < 0 is false, so NaN propagates as in torch.relu.
    return [](T x) { return x < T(0) ? T(0) : x; };
  }
};

class GeluOp : public UnaryOp<GeluOp> {
 public:
  std::string_view name() const override { return "gelu"; }
  Attrs attribute_defaults() const override { return {}; }
  void check_attrs(const Attrs&) const {}
  template <class T>
  auto function(const Attrs&) const {
    // torch.nn.functional.gelu(approximate='none'): 0.5·x·(1 + erf(x/√2)).
    constexpr T kInvSqrt2 = T(0.70710678118654752440);
    return [](T x) { return T(0.5) * x * (T(1) + std::erf(x * kInvSqrt2)); };
  }
};

class LeakyReluOp : public UnaryOp<LeakyReluOp> {
 public:
  std::string_view name() const override { return "leaky_relu"; }
  Attrs attribute_defaults() const override { return {{"negative_slope", kDefaultNegativeSlope}}; }
  void check_attrs(const Attrs& attrs) const {
    real_attr(name(), attrs, "negative_slope", kDefaultNegativeSlope);
  }
  template <class T>
  auto function(const Attrs& attrs) const {
    const T slope = static_cast<T>(real_attr(name(), attrs, "negative_slope",
                                             kDefaultNegativeSlope));
    return [slope](T x) { return x < T(0) ? x * slope : x; };
  }
};

class SigmoidOp : public UnaryOp<SigmoidOp> {
 public:
  std::string_view name() const override { return "sigmoid"; }
  Attrs attribute_defaults() const override { return {}; }
  void check_attrs(const Attrs&) const {}
  template <class T>
  auto function(const Attrs&) const {
    // exp(-x) overflows to +inf for very negative x, giving exactly 0 as torch.sigmoid does.
    return [](T x) { return T(1) / (T(1) + std::exp(-x)); };
  }
};

class TanhOp : public UnaryOp<TanhOp> {
 public:
  std::string_view name() const override { return "tanh"; }
  Attrs attribute_defaults() const override { return {}; }
  void check_attrs(const Attrs&) const {}
  template <class T>
  auto function(const Attrs&) const {
    return [](T x) { return std::tanh(x); };
  }
};

class ScaleOp : public UnaryOp<ScaleOp> {
 public:
  std::string_view name() const override { return "scale"; }
  Attrs attribute_defaults() const override { return {{"value", kDefaultScale}}; }
  void check_attrs(const Attrs& attrs) const { real_attr(name(), attrs, "value", kDefaultScale); }
  template <class T>
  auto function(const Attrs& attrs) const {
    const T value = static_cast<T>(real_attr(name(), attrs, "value", kDefaultScale));
    return [value](T x) { return x * value; };
  }
};

}  // namespace

const Op& relu() {
  static const ReluOp op;
  return op;
}
const Op& gelu() {
  static const GeluOp op;
  return op;
}
const Op& leaky_relu() {
  static const LeakyReluOp op;
  return op;
}
const Op& sigmoid() {
  static const SigmoidOp op;
  return op;
}
const Op& tanh() {
  static const TanhOp op;
  return op;
}
const Op& scale() {
  static const ScaleOp op;
  return op;
}

}  // namespace kbv::builtin_ops
