// daemon/ops/maxpool2d/host.cpp — maxpool2d's host face: ops/common/pooling.hpp's PoolHostOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/common/pooling.hpp"
#include "ops/maxpool2d/maxpool2d.hpp"

namespace kbv::ops::maxpool2d {

const Op& host_op() {
  static const PoolHostOp<Definition> op;
  return op;
}

}  // namespace kbv::ops::maxpool2d
