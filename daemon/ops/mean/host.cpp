// daemon/ops/mean/host.cpp — mean's host face: fp64 reference and fp32 host baseline (accumulating
// in the element type), shape inference and cost.
#include "ops/common/axis_reduction.hpp"
#include "ops/mean/mean.hpp"

namespace kbv::ops::mean {
namespace {

class MeanOp final : public AxisReductionOp<MeanOp, Definition> {
 public:
  template <class T>
  static T finish(T sum, int64_t extent) {
    return sum / static_cast<T>(extent);
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
