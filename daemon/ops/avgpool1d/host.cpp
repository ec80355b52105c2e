// daemon/ops/avgpool1d/host.cpp — avgpool1d's host face: ops/common/pooling.hpp's PoolOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/avgpool1d/avgpool1d.hpp"

namespace kbv::ops::avgpool1d {
namespace {

class Avgpool1dOp final : public PoolOp<Avgpool1dOp, Definition> {};

}  // namespace

const Op& host_op() {
  static const Avgpool1dOp op;
  return op;
}

}  // namespace kbv::ops::avgpool1d
