// daemon/ops/maxpool3d/host.cpp — maxpool3d's host face: ops/common/pooling.hpp's PoolOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/maxpool3d/maxpool3d.hpp"

namespace kbv::ops::maxpool3d {
namespace {

class Maxpool3dOp final : public PoolOp<Maxpool3dOp, Definition> {};

}  // namespace

const Op& host_op() {
  static const Maxpool3dOp op;
  return op;
}

}  // namespace kbv::ops::maxpool3d
