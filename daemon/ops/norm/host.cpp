// daemon/ops/norm/host.cpp — norm's host face: fp64 reference and fp32 host baseline
// (reduce_lines), shape inference and cost.
#include <cmath>

#include "ops/common/axis_reduction.hpp"
#include "ops/norm/norm.hpp"

namespace kbv::ops::norm {
namespace {

class NormOp final : public AxisReductionOp<NormOp, Definition> {
 public:
  Shape infer_shape(const std::vector<Shape>& inputs, const Attrs& attrs) const override {
    Definition::order(attrs);
    return AxisReductionOp::infer_shape(inputs, attrs);
  }

  // As PyTorch's norm kernels: x² and sqrt for p = 2, |x| and no root for p = 1, else pow.
  template <class T>
  void reduce(const T* x, T* y, const op_support::AxisSplit& split, const Attrs& attrs) const {
    const T p = static_cast<T>(Definition::order(attrs));
    reduce_lines(
        x, y, split, T(0),
        [p](T& sum, T value, int64_t) {
          sum += p == T(2) ? value * value : (p == T(1) ? std::fabs(value) : std::pow(std::fabs(value), p));
        },
        [p](T sum, int64_t) { return p == T(2) ? std::sqrt(sum) : (p == T(1) ? sum : std::pow(sum, T(1) / p)); });
  }

  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return 2.0 * static_cast<double>(numel(inputs.at(0)));
  }
};

}  // namespace

const Op& host_op() {
  static const NormOp op;
  return op;
}

}  // namespace kbv::ops::norm
