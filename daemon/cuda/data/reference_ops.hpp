// data/reference_ops.hpp — the fp64 device reference of every primitive op in the host registry
// (ops/registry.hpp), with the host ops' semantics, attribute names and defaults.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

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

// Whether run_op_f64_device knows `op_name`; and every name it knows.
bool has_device_reference(std::string_view op_name);
std::vector<std::string> device_reference_op_names();

// im2col scratch per conv2d call: bounds memory for KernelBench's 16×16×1024² → 128-channel
// conv (a full image's columns would take 144 × 1022² × 8 B ≈ 1.2 GB) while each chunk is still
// a GEMM of ~460 K columns, large enough to run cuBLAS at full rate. Smaller chunks that stay in
// L2 are slower, not faster: 34.6 ms at 512 MiB, 49.7 at 128, 56.5 at 24, 75.9 at 6 (H200,
// kbv_bench_cuda_data: docs/results/data.md).
constexpr size_t kConvColumnBudgetBytes = size_t{512} << 20;

// conv2d with an explicit im2col budget (exposed so tests can force many chunks).
void conv2d_f64_device(const OpArgs<double>& args, const ReferenceContext& context,
                       size_t max_column_bytes);

}  // namespace kbv::cuda
