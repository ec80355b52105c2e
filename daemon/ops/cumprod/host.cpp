// daemon/ops/cumprod/host.cpp — cumprod's host face: fp64 reference and fp32 host baseline (the
// blocked scan of ops/common/scan.hpp), shape inference and cost.
#include "ops/cumprod/cumprod.hpp"
#include "ops/common/scan.hpp"

namespace kbv::ops::cumprod {
namespace {

class CumProdOp final : public ScanOp<CumProdOp, Definition, true> {};

}  // namespace

const Op& host_op() {
  static const CumProdOp op;
  return op;
}

}  // namespace kbv::ops::cumprod
