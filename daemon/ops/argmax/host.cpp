// daemon/ops/argmax/host.cpp — argmax's host face: fp64 reference and fp32 host baseline
// (ops/common/arg_reduction.hpp), shape inference and cost.
#include "ops/argmax/argmax.hpp"
#include "ops/common/arg_reduction.hpp"

namespace kbv::ops::argmax {
namespace {

class ArgMaxOp final : public ArgReductionOp<ArgMaxOp, Definition> {
 public:
  template <class T>
  void reduce(const T* x, T* y, const op_support::AxisSplit& split, const Attrs&) const {
    reduce_arg_extreme<true>(x, y, split);
  }
};

}  // namespace

const Op& host_op() {
  static const ArgMaxOp op;
  return op;
}

}  // namespace kbv::ops::argmax
