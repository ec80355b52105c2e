// daemon/ops/sum/host.cpp — sum's host face: fp64 reference and fp32 host baseline (accumulating in
// the element type), shape inference and cost.
#include "ops/common/axis_reduction.hpp"
#include "ops/sum/sum.hpp"

namespace kbv::ops::sum {
namespace {

class SumOp final : public AxisReductionOp<SumOp, Definition> {
 public:
  template <class T>
  void reduce(const T* x, T* y, const op_support::AxisSplit& split, const Attrs&) const {
    reduce_lines(x, y, split, T(0), [](T& sum, T value, int64_t) { sum += value; },
                 [](T sum, int64_t) { return sum; });
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
