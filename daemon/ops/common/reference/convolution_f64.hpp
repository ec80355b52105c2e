// ops/common/reference/convolution_f64.hpp — the convolutions' CUDA fp64 reference (conv1d/2d/3d,
// conv_transpose1d/2d/3d): im2col over output positions in chunks, each chunk one cuBLAS Dgemm
// per group, then the bias. Every op's reference face calls convolution_f64; tests and
// bench/cuda_data call convolution_f64_device with a budget of their own.
#pragma once

#include <cstddef>
#include <string_view>

#include "data/reference_context.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::reference {

// im2col scratch per convolution call: bounds memory for KernelBench's 16×16×1024² → 128-channel
// conv2d (a full image's columns would take 144 × 1022² × 8 B ≈ 1.2 GB) while each chunk is still
// a GEMM of ~460 K columns, large enough to run cuBLAS at full rate. Smaller chunks that stay in
// L2 are slower, not faster: 34.6 ms at 512 MiB, 49.7 at 128, 56.5 at 24, 75.9 at 6 (H200,
// kbv_bench_cuda_data: docs/results/data.md).
constexpr size_t kConvColumnBudgetBytes = size_t{512} << 20;

// The reference of a convolution op's application, with im2col columns of at most
// `max_column_bytes` (at least one output position per chunk). Throws OpError when call.op is
// not a convolution.
void convolution_f64(const ReferenceCall& call, size_t max_column_bytes);

// The same on device buffers (as kbv::cuda::run_op_f64_device) for the op named `op`; validates
// like the host op and throws OpError otherwise.
void convolution_f64_device(std::string_view op, const OpArgs<double>& args, const cuda::ReferenceContext& context,
                            size_t max_column_bytes);

}  // namespace kbv::ops::reference
