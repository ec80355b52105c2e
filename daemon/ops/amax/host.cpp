// daemon/ops/amax/host.cpp — amax's host face: fp64 reference and fp32 host baseline
// (ops/common/extreme.hpp), shape inference and cost.
#include "ops/amax/amax.hpp"
#include "ops/common/extreme.hpp"

namespace kbv::ops::amax {
namespace {

class MaxOp final : public AxisReductionOp<MaxOp, Definition> {
 public:
  template <class T>
  void reduce(const T* x, T* y, const op_support::AxisSplit& split, const Attrs&) const {
    reduce_extreme<true>(x, y, split);
  }
  double flops(const std::vector<Shape>& inputs, const Shape& output, const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)) - numel(output));
  }
};

}  // namespace

const Op& host_op() {
  static const MaxOp op;
  return op;
}

}  // namespace kbv::ops::amax
