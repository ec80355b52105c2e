// ops/conv2d/reference.hpp — conv2d's CUDA fp64 reference with an explicit im2col budget, for
// tests that force many chunks and for bench/cuda_data's budget sweep.
#pragma once

#include <cstddef>

#include "data/reference_context.hpp"
#include "ops/op.hpp"

namespace kbv::ops::conv2d {

// im2col scratch per conv2d call: bounds memory for KernelBench's 16×16×1024² → 128-channel
// conv (a full image's columns would take 144 × 1022² × 8 B ≈ 1.2 GB) while each chunk is still
// a GEMM of ~460 K columns, large enough to run cuBLAS at full rate. Smaller chunks that stay in
// L2 are slower, not faster: 34.6 ms at 512 MiB, 49.7 at 128, 56.5 at 24, 75.9 at 6 (H200,
// kbv_bench_cuda_data: docs/results/data.md).
constexpr size_t kConvColumnBudgetBytes = size_t{512} << 20;

// conv2d on device buffers (as kbv::cuda::run_op_f64_device) with im2col columns of at most
// `max_column_bytes`; validates like the host op and throws OpError otherwise.
void conv2d_f64_device(const OpArgs<double>& args, const cuda::ReferenceContext& context,
                       size_t max_column_bytes);

}  // namespace kbv::ops::conv2d
