// daemon/ops/maxpool2d/host.cpp — maxpool2d's host face: ops/common/pooling.hpp's PoolOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/maxpool2d/maxpool2d.hpp"

namespace kbv::ops::maxpool2d {
namespace {

class Maxpool2dOp final : public PoolOp<Maxpool2dOp, Definition> {};

}  // namespace

const Op& host_op() {
  static const Maxpool2dOp op;
  return op;
}

}  // namespace kbv::ops::maxpool2d
