// daemon/ops/sum/host.cpp — sum's host face: fp64 reference and fp32 host baseline (accumulating in
// the element type), shape inference and cost.
#include "ops/common/axis_reduction.hpp"
#include "ops/sum/sum.hpp"

namespace kbv::ops::sum {
namespace {

class SumOp final : public AxisReductionOp<SumOp, Definition> {
 public:
  template <class T>
  static T finish(T sum, int64_t) {
    return sum;
  }
  double flops(const std::vector<Shape>& inputs, const Shape& output, const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)) - numel(output));
  }
};

}  // namespace

const Op& host_op() {
  static const SumOp op;
  return op;
}

}  // namespace kbv::ops::sum
