// daemon/ops/unflatten/reference.cpp — unflatten's CUDA fp64 reference: its plan run by the
// strided-copy kernel (ops/common/reference/strided_copy_f64.hpp).
#include "ops/common/reference/strided_copy_f64.hpp"
#include "ops/unflatten/unflatten.hpp"

namespace kbv::ops::unflatten {

void device_reference(const ReferenceCall& call) {
  reference::run_copy_plan(call, plan(call.args.input_shapes, call.attrs));
}

}  // namespace kbv::ops::unflatten
