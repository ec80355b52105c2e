// daemon/ops/triu/host.cpp — triu's host face: fp64 reference and fp32 host baseline, shape
// inference and cost (ops/common/triangle.hpp).
#include "ops/triu/triu.hpp"
#include "ops/common/triangle.hpp"

namespace kbv::ops::triu {
namespace {

class TriuOp final : public TriangleOp<TriuOp, Definition, false> {};

}  // namespace

const Op& host_op() {
  static const TriuOp op;
  return op;
}

}  // namespace kbv::ops::triu
