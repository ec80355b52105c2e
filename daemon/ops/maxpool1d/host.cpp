// daemon/ops/maxpool1d/host.cpp — maxpool1d's host face: ops/common/pooling.hpp's PoolOp (shape
// inference, cost, and the loop that is the fp64 reference and the fp32 host baseline).
#include "ops/maxpool1d/maxpool1d.hpp"

namespace kbv::ops::maxpool1d {
namespace {

class Maxpool1dOp final : public PoolOp<Maxpool1dOp, Definition> {};

}  // namespace

const Op& host_op() {
  static const Maxpool1dOp op;
  return op;
}

}  // namespace kbv::ops::maxpool1d
