// daemon/ops/log_softmax/host.cpp — log_softmax's host face: fp64 reference and fp32 host
// baseline, shape inference and cost (ops/common/softmax_host.hpp).
#include "ops/common/softmax_host.hpp"
#include "ops/log_softmax/log_softmax.hpp"

namespace kbv::ops::log_softmax {
namespace {

class LogSoftmaxOp final : public SoftmaxLikeOp<LogSoftmaxOp, Definition, true> {};

}  // namespace

const Op& host_op() {
  static const LogSoftmaxOp op;
  return op;
}

}  // namespace kbv::ops::log_softmax
