// ops/common/softmax_host.hpp — the host face softmax and log_softmax share: shape inference
// (one axis, the input's shape) and the three-pass loop that is both the fp64 reference and the
// fp32 host baseline. Derived's Definition has `axis`; kLog picks log_softmax.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/common/definition.hpp"
#include "ops/op_support.hpp"

namespace kbv::ops {

template <class Derived, class Definition, bool kLog>
class SoftmaxLikeOp : public DefinedOp<Derived, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    using namespace op_support;
    check_input_count(Definition::name, Definition::inputs, inputs, 1, 1);
    check_dims_positive(Definition::name, inputs);
    axis_attr(Definition::name, attrs, "axis", default_of<Definition>("axis"), inputs[0].size());
    return inputs[0];
  }

  // Two per element: every exponential enters the normalising sum (an add) and every output
  // is scaled by it or has its log subtracted. The max subtraction is not counted, since
  // exp(x)/Σexp(x) is also a (less stable) softmax, and neither is the exponential.
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 2.0 * static_cast<double>(numel(inputs.at(0)));
  }

  // Three passes over each [extent, inner] slab: max, exp and sum, normalise (x − max − log Σ for
  // log_softmax, as PyTorch's kernel); `inner` innermost so each pass is contiguous, with one
  // running max and sum per inner column.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    using namespace op_support;
    check_args(*this, args);
    const Shape& shape = args.input_shapes[0];
    const AxisSplit split = split_at_axis(
        shape, axis_attr(Definition::name, attrs_of(args), "axis", default_of<Definition>("axis"), shape.size()));
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
          if (!kLog) y[a * split.inner + i] = e;
          sum[i] += e;
        }
      if (kLog)
        for (size_t i = 0; i < inner; ++i) sum[i] = std::log(sum[i]);
      for (int64_t a = 0; a < split.extent; ++a)
        for (size_t i = 0; i < inner; ++i) {
          T& out = y[a * split.inner + i];
          if (kLog) out = x[a * split.inner + i] - max[i] - sum[i];
          else out /= sum[i];
        }
    }
  }
};

}  // namespace kbv::ops
