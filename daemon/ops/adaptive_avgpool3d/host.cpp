// daemon/ops/adaptive_avgpool3d/host.cpp — adaptive_avgpool3d's host face: ops/common/pooling.hpp's
// PoolOp (shape inference, cost, and the loop that is the fp64 reference and the fp32 host
// baseline).
#include "ops/adaptive_avgpool3d/adaptive_avgpool3d.hpp"

namespace kbv::ops::adaptive_avgpool3d {
namespace {

class AdaptiveAvgpool3dOp final : public PoolOp<AdaptiveAvgpool3dOp, Definition> {};

}  // namespace

const Op& host_op() {
  static const AdaptiveAvgpool3dOp op;
  return op;
}

}  // namespace kbv::ops::adaptive_avgpool3d
