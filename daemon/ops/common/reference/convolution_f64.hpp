// ops/common/reference/convolution_f64.hpp — the convolutions' CUDA fp64 reference (conv1d/2d/3d,
// conv_transpose1d/2d/3d): im2col over output positions in chunks, each chunk one cuBLAS Dgemm
// per group, then the bias. Every op's reference face calls convolution_f64; tests and
// bench/cuda_data call convolution_f64_device with a budget of their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "data/reference_context.hpp"
#include "ops/common/convolution.hpp"
#include "ops/common/reference/reference_call.hpp"

namespace kbv::ops::reference {

// im2col scratch per convolution call: bounds memory for KernelBench's 16×16×1024² → 128-channel
// conv2d (a full image's columns would take 144 × 1022² × 8 B ≈ 1.2 GB) while each chunk is still
// a GEMM of ~460 K columns, large enough to run cuBLAS at full rate. Smaller chunks that stay in
// L2 are slower, not faster: 34.6 ms at 512 MiB, 49.7 at 128, 56.5 at 24, 75.9 at 6 (H200,
// kbv_bench_cuda_data: docs/results/data.md).
constexpr size_t kConvColumnBudgetBytes = size_t{512} << 20;

// Whole images one strided-batched GEMM may take, where one image's columns fit the budget
// several times over (conv2d_relu_biasadd: 126² positions × 576 rows, 7 images in 512 MiB). One
// such image is a GEMM of ~124 output tiles, under one wave of an H100's 132 SMs, and its 128
// per-image GEMMs ran at 8.5 TFLOP/s (r98, docs/results/h100/data.md). Batching passed every
// device-reference test (r100), but its speed is not measured warm yet (r100's figure was the
// first run's loading): kbv's references take one image a GEMM until kbv_bench_cuda_data's
// "images per GEMM" lines say more is faster.
constexpr int64_t kConvImagesPerGemm = 1;

// Whole images each GEMM of convolution_f64 takes for this geometry: as many as `max_column_bytes`
// of im2col columns hold (at most the batch and `max_images_per_gemm`) where one image's columns
// fit in them, else 1 (the chunks split images).
int64_t images_per_gemm(const ConvolutionGeometry& geometry, size_t max_column_bytes, int64_t max_images_per_gemm);  // max ≥ 1

// The reference of a convolution op's application, with im2col columns of at most
// `max_column_bytes` (at least one output position per chunk) and at most `max_images_per_gemm`
// whole images (≥ 1) a GEMM. Throws OpError when call.op is not a convolution.
void convolution_f64(const ReferenceCall& call, size_t max_column_bytes, int64_t max_images_per_gemm = kConvImagesPerGemm);

// The same on device buffers (as kbv::cuda::run_op_f64_device) for the op named `op`; validates
// like the host op and throws OpError otherwise.
void convolution_f64_device(std::string_view op, const OpArgs<double>& args, const cuda::ReferenceContext& context,
                            size_t max_column_bytes, int64_t max_images_per_gemm = kConvImagesPerGemm);

}  // namespace kbv::ops::reference
