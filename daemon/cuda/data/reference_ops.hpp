// data/reference_ops.hpp — the fp64 device reference of every primitive op in the host registry
// (ops/registry.hpp), with the host ops' semantics, attribute names and defaults: each op's
// `device_reference` face (daemon/ops/<name>/reference.cu).
#pragma once

#include <string_view>

#include "data/reference_context.hpp"
#include "ops/op.hpp"

namespace kbv::cuda {

// Runs op `op_name` on device buffers: `args` has the same meaning as for Op::reference_f64 but
// every pointer is device memory. Attributes missing from args.attrs take the host op's
// defaults. Validates like the host op (input count, output shape from its infer_shape) and
// throws OpError naming the problem; throws CudaError when CUDA or cuBLAS fails. Asynchronous
// on the context's stream; scratch memory is stream-ordered.
void run_op_f64_device(std::string_view op_name, const OpArgs<double>& args,
                       const ReferenceContext& context);

}  // namespace kbv::cuda
