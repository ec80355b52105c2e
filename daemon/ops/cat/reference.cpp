// daemon/ops/cat/reference.cpp — cat's CUDA fp64 reference: its plan run by the strided-copy
// kernel (ops/common/reference/strided_copy_f64.hpp).
#include "ops/cat/cat.hpp"
#include "ops/common/reference/strided_copy_f64.hpp"

namespace kbv::ops::cat {

void device_reference(const ReferenceCall& call) {
  reference::run_copy_plan(call, plan(call.args.input_shapes, call.attrs));
}

}  // namespace kbv::ops::cat
