// daemon/ops/argmax/reference.cu — argmax's CUDA fp64 reference
// (ops/common/reference/arg_reduce_f64.hpp).
#include "ops/common/reference/arg_reduce_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::argmax {

void device_reference(const ReferenceCall& call) {
  const op_support::AxisSplit s = call.reduced_split();
  reference::arg_extreme_f64(true, call.input(0), call.output(), s.outer, s.extent, s.inner, call.stream);
}

}  // namespace kbv::ops::argmax
