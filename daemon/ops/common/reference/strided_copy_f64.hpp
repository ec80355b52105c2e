// ops/common/reference/strided_copy_f64.hpp — the CUDA fp64 reference of every layout op: the
// op's copy plan (ops/common/strided_copy.hpp) run by the strided-copy kernel
// (ops/common/strided_copy.cuh) on the call's device buffers.
#pragma once

#include "ops/common/reference/reference_call.hpp"
#include "ops/common/strided_copy.hpp"

namespace kbv::ops::reference {

// Enqueues the plan's copies on call.stream; throws CudaError when a launch fails.
void run_copy_plan(const ReferenceCall& call, const layout::CopyPlan& plan);

}  // namespace kbv::ops::reference
