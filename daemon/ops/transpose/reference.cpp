// daemon/ops/transpose/reference.cpp — transpose's CUDA fp64 reference: its plan run by the
// strided-copy kernel (ops/common/reference/strided_copy_f64.hpp).
#include "ops/common/reference/strided_copy_f64.hpp"
#include "ops/transpose/transpose.hpp"

namespace kbv::ops::transpose {

void device_reference(const ReferenceCall& call) {
  reference::run_copy_plan(call, plan(call.args.input_shapes, call.attrs));
}

}  // namespace kbv::ops::transpose
