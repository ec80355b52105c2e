// daemon/ops/cumsum/reference.cu — cumsum's CUDA fp64 reference
// (ops/common/reference/scan_f64.hpp).
#include "ops/common/reference/reference_call.hpp"
#include "ops/common/reference/scan_f64.hpp"

namespace kbv::ops::cumsum {

void device_reference(const ReferenceCall& call) {
  const op_support::AxisSplit s = call.split_at("axis");
  reference::scan_f64(false, call.integer("reverse", 0) == 1, call.integer("exclusive", 0) == 1, call.input(0),
                      call.output(), s.outer, s.extent, s.inner, call.stream);
}

}  // namespace kbv::ops::cumsum
