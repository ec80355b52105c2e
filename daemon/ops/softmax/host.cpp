// daemon/ops/softmax/host.cpp — softmax's host face: fp64 reference and fp32 host baseline, shape
// inference and cost.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/op_support.hpp"
#include "ops/softmax/softmax.hpp"

namespace kbv::ops::softmax {
namespace {

using namespace op_support;

constexpr double kDefaultAxis = default_of<Definition>("axis");

class SoftmaxOp final : public DefinedOp<SoftmaxOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    check_input_count(name(), Definition::inputs, inputs, 1, 1);
    check_dims_positive(name(), inputs);
    axis_attr(name(), attrs, "axis", kDefaultAxis, inputs[0].size());
    return inputs[0];
  }

  // Two per element: every exponential enters the normalising sum (an add) and every output
  // is scaled by it (a multiply or divide). The max subtraction is not counted, since
  // exp(x)/Σexp(x) is also a (less stable) softmax, and neither is the exponential.
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 2.0 * static_cast<double>(numel(inputs.at(0)));
  }

  // Three passes over each [extent, inner] slab: max, exp and sum, normalise; `inner`
  // innermost so each pass is contiguous, with one running max and sum per inner column.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const Shape& shape = args.input_shapes[0];
    const AxisSplit split =
        split_at_axis(shape, axis_attr(name(), attrs_of(args), "axis", kDefaultAxis, shape.size()));
    const auto inner = static_cast<size_t>(split.inner);
    std::vector<T> max(inner), sum(inner);
    for (int64_t o = 0; o < split.outer; ++o) {
      const T* x = args.inputs[0] + o * split.extent * split.inner;
      T* y = args.output + o * split.extent * split.inner;
      std::fill(max.begin(), max.end(), -std::numeric_limits<T>::infinity());
      std::fill(sum.begin(), sum.end(), T(0));
      for (int64_t a = 0; a < split.extent; ++a)
        for (size_t i = 0; i < inner; ++i) max[i] = std::max(max[i], x[a * split.inner + i]);
      for (int64_t a = 0; a < split.extent; ++a)
        for (size_t i = 0; i < inner; ++i) {
          T e = std::exp(x[a * split.inner + i] - max[i]);
          y[a * split.inner + i] = e;
          sum[i] += e;
        }
      for (int64_t a = 0; a < split.extent; ++a)
        for (size_t i = 0; i < inner; ++i) y[a * split.inner + i] /= sum[i];
    }
  }
};

}  // namespace

const Op& host_op() {
  static const SoftmaxOp op;
  return op;
}

}  // namespace kbv::ops::softmax
