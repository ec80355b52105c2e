// daemon/ops/tril/host.cpp — tril's host face: fp64 reference and fp32 host baseline, shape
// inference and cost (ops/common/triangle.hpp).
#include "ops/tril/tril.hpp"
#include "ops/common/triangle.hpp"

namespace kbv::ops::tril {
namespace {

class TrilOp final : public TriangleOp<TrilOp, Definition, true> {};

}  // namespace

const Op& host_op() {
  static const TrilOp op;
  return op;
}

}  // namespace kbv::ops::tril
