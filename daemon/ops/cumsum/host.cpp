// daemon/ops/cumsum/host.cpp — cumsum's host face: fp64 reference and fp32 host baseline (the
// blocked scan of ops/common/scan.hpp), shape inference and cost.
#include "ops/cumsum/cumsum.hpp"
#include "ops/common/scan.hpp"

namespace kbv::ops::cumsum {
namespace {

class CumSumOp final : public ScanOp<CumSumOp, Definition, false> {};

}  // namespace

const Op& host_op() {
  static const CumSumOp op;
  return op;
}

}  // namespace kbv::ops::cumsum
