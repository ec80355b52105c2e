// daemon/ops/softmax/host.cpp — softmax's host face: fp64 reference and fp32 host baseline, shape
// inference and cost (ops/common/softmax_host.hpp).
#include "ops/common/softmax_host.hpp"
#include "ops/softmax/softmax.hpp"

namespace kbv::ops::softmax {
namespace {

class SoftmaxOp final : public SoftmaxLikeOp<SoftmaxOp, Definition, false> {};

}  // namespace

const Op& host_op() {
  static const SoftmaxOp op;
  return op;
}

}  // namespace kbv::ops::softmax
