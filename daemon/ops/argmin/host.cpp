// daemon/ops/argmin/host.cpp — argmin's host face: fp64 reference and fp32 host baseline
// (ops/common/arg_reduction.hpp), shape inference and cost.
#include "ops/argmin/argmin.hpp"
#include "ops/common/arg_reduction.hpp"

namespace kbv::ops::argmin {
namespace {

class ArgMinOp final : public ArgReductionOp<ArgMinOp, Definition> {
 public:
  template <class T>
  void reduce(const T* x, T* y, const op_support::AxisSplit& split, const Attrs&) const {
    reduce_arg_extreme<false>(x, y, split);
  }
};

}  // namespace

const Op& host_op() {
  static const ArgMinOp op;
  return op;
}

}  // namespace kbv::ops::argmin
