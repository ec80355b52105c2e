// daemon/ops/amin/reference.cu — amin's CUDA fp64 reference
// (ops/common/reference/axis_reduce_f64.hpp).
#include "ops/common/reference/axis_reduce_f64.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::amin {

void device_reference(const ReferenceCall& call) {
  const op_support::AxisSplit s = call.reduced_split();
  reference::reduce_axis_f64(reference::AxisReduction::min, 0, call.input(0), call.output(), s.outer, s.extent,
                             s.inner, call.stream);
}

}  // namespace kbv::ops::amin
