// daemon/ops/maxpool3d/host.cpp — maxpool3d's host face: ops/common/pooling.hpp's PoolHostOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/common/pooling.hpp"
#include "ops/maxpool3d/maxpool3d.hpp"

namespace kbv::ops::maxpool3d {

const Op& host_op() {
  static const PoolHostOp<Definition> op;
  return op;
}

}  // namespace kbv::ops::maxpool3d
