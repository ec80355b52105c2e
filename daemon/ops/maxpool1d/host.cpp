// daemon/ops/maxpool1d/host.cpp — maxpool1d's host face: ops/common/pooling.hpp's PoolHostOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/common/pooling.hpp"
#include "ops/maxpool1d/maxpool1d.hpp"

namespace kbv::ops::maxpool1d {

const Op& host_op() {
  static const PoolHostOp<Definition> op;
  return op;
}

}  // namespace kbv::ops::maxpool1d
