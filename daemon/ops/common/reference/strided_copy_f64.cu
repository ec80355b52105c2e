// daemon/ops/common/reference/strided_copy_f64.cu — layout ops' CUDA fp64 reference: the
// strided-copy kernel instantiated in double.
#include <algorithm>

#include "ops/common/reference/strided_copy_f64.hpp"
#include "ops/common/strided_copy.cuh"

namespace kbv::ops::reference {

void run_copy_plan(const ReferenceCall& call, const layout::CopyPlan& plan) {
  int64_t largest = numel(call.output_shape());
  for (const Shape& shape : call.args.input_shapes) largest = std::max(largest, numel(shape));
  layout::launch_strided_copies<double>(plan.copies, call.args.inputs, call.output(), largest,
                                        call.stream);
}

}  // namespace kbv::ops::reference
