// daemon/ops/amin/host.cpp — amin's host face: fp64 reference and fp32 host baseline
// (ops/common/extreme.hpp), shape inference and cost.
#include "ops/amin/amin.hpp"
#include "ops/common/extreme.hpp"

namespace kbv::ops::amin {
namespace {

class MinOp final : public AxisReductionOp<MinOp, Definition> {
 public:
  template <class T>
  void reduce(const T* x, T* y, const op_support::AxisSplit& split, const Attrs&) const {
    reduce_extreme<false>(x, y, split);
  }
  double flops(const std::vector<Shape>& inputs, const Shape& output, const Attrs&) const override {
    return static_cast<double>(numel(inputs.at(0)) - numel(output));
  }
};

}  // namespace

const Op& host_op() {
  static const MinOp op;
  return op;
}

}  // namespace kbv::ops::amin
