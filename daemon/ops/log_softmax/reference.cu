// daemon/ops/log_softmax/reference.cu — log_softmax's CUDA fp64 reference
// (ops/common/reference/softmax_f64.hpp).
#include "ops/common/reference/reference_call.hpp"
#include "ops/common/reference/softmax_f64.hpp"

namespace kbv::ops::log_softmax {

void device_reference(const ReferenceCall& call) {
  const op_support::AxisSplit s = call.split_at("axis");
  reference::softmax_f64(true, call.input(0), call.output(), s.outer, s.extent, s.inner, call.stream);
}

}  // namespace kbv::ops::log_softmax
