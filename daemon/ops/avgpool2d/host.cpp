// daemon/ops/avgpool2d/host.cpp — avgpool2d's host face: ops/common/pooling.hpp's PoolOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/avgpool2d/avgpool2d.hpp"

namespace kbv::ops::avgpool2d {
namespace {

class Avgpool2dOp final : public PoolOp<Avgpool2dOp, Definition> {};

}  // namespace

const Op& host_op() {
  static const Avgpool2dOp op;
  return op;
}

}  // namespace kbv::ops::avgpool2d
