// daemon/ops/mean/host.cpp — mean's host face: fp64 reference and fp32 host baseline (accumulating
// in the element type), shape inference and cost.
#include "ops/common/axis_reduction.hpp"
#include "ops/mean/mean.hpp"

namespace kbv::ops::mean {
namespace {

class MeanOp final : public AxisReductionOp<MeanOp, Definition> {
 public:
  template <class T>
  void reduce(const T* x, T* y, const op_support::AxisSplit& split, const Attrs&) const {
    const auto extent = static_cast<T>(split.extent);
    reduce_lines(x, y, split, T(0), [](T& sum, T value, int64_t) { sum += value; },
                 [extent](T sum, int64_t) { return sum / extent; });
  }
  double flops(const std::vector<Shape>& inputs, const Shape&, const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)));
  }
};

}  // namespace

const Op& host_op() {
  static const MeanOp op;
  return op;
}

}  // namespace kbv::ops::mean
