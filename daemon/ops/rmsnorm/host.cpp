// daemon/ops/rmsnorm/host.cpp — rmsnorm's host face: fp64 reference and fp32 host baseline, shape
// inference and cost.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/op_support.hpp"
#include "ops/rmsnorm/rmsnorm.hpp"

namespace kbv::ops::rmsnorm {
namespace {

using namespace op_support;

constexpr double kDefaultAxis = default_of<Definition>("axis");
constexpr double kDefaultEps = default_of<Definition>("eps");

class RmsNormOp final : public DefinedOp<RmsNormOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    check_input_count(name(), Definition::inputs, inputs, 1, 1);
    check_dims_positive(name(), inputs);
    axis_attr(name(), attrs, "axis", kDefaultAxis, inputs[0].size());
    if (real_attr(name(), attrs, "eps", kDefaultEps) < 0)
      throw OpError("rmsnorm: attribute eps is negative; expected eps >= 0");
    return inputs[0];
  }

  // Three per element: a multiply and an add into the mean of squares, one operation (the
  // divide, or a multiply by the reciprocal) for the output.
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 3.0 * static_cast<double>(numel(inputs.at(0)));
  }

  // For each outer index: accumulate squares over the axis in rows of `inner` contiguous
  // values, then divide every element by its column's RMS.
  template <class T>
  void compute(const OpArgs<T>& args) const {
    check_args(*this, args);
    const Attrs& attrs = attrs_of(args);
    const Shape& shape = args.input_shapes[0];
    const AxisSplit split =
        split_at_axis(shape, axis_attr(name(), attrs, "axis", kDefaultAxis, shape.size()));
    const T eps = static_cast<T>(real_attr(name(), attrs, "eps", kDefaultEps));
    const auto inner = static_cast<size_t>(split.inner);
    std::vector<T> rms(inner);
    for (int64_t o = 0; o < split.outer; ++o) {
      const T* x = args.inputs[0] + o * split.extent * split.inner;
      T* y = args.output + o * split.extent * split.inner;
      std::fill(rms.begin(), rms.end(), T(0));
      for (int64_t a = 0; a < split.extent; ++a)
        for (size_t i = 0; i < inner; ++i) rms[i] += x[a * split.inner + i] * x[a * split.inner + i];
      for (size_t i = 0; i < inner; ++i)
        rms[i] = std::sqrt(rms[i] / static_cast<T>(split.extent) + eps);
      for (int64_t a = 0; a < split.extent; ++a)
        for (size_t i = 0; i < inner; ++i) y[a * split.inner + i] = x[a * split.inner + i] / rms[i];
    }
  }
};

}  // namespace

const Op& host_op() {
  static const RmsNormOp op;
  return op;
}

}  // namespace kbv::ops::rmsnorm
