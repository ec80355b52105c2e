// daemon/ops/adaptive_avgpool2d/host.cpp — adaptive_avgpool2d's host face: ops/common/pooling.hpp's
// PoolOp (shape inference, cost, and the loop that is the fp64 reference and the fp32 host
// baseline).
#include "ops/adaptive_avgpool2d/adaptive_avgpool2d.hpp"

namespace kbv::ops::adaptive_avgpool2d {
namespace {

class AdaptiveAvgpool2dOp final : public PoolOp<AdaptiveAvgpool2dOp, Definition> {};

}  // namespace

const Op& host_op() {
  static const AdaptiveAvgpool2dOp op;
  return op;
}

}  // namespace kbv::ops::adaptive_avgpool2d
