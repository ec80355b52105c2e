// daemon/ops/avgpool3d/host.cpp — avgpool3d's host face: ops/common/pooling.hpp's PoolOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/avgpool3d/avgpool3d.hpp"

namespace kbv::ops::avgpool3d {
namespace {

class Avgpool3dOp final : public PoolOp<Avgpool3dOp, Definition> {};

}  // namespace

const Op& host_op() {
  static const Avgpool3dOp op;
  return op;
}

}  // namespace kbv::ops::avgpool3d
