// ops/common/baseline/pad_copy.hpp — the copies of a padded GEMM (blas.cpp, as torch.compile's
// pad_mm): a row-major matrix into a wider, taller one with zeros around it, and a dense matrix
// back out of a wider one. Kernels, not cudaMemcpy2DAsync and cudaMemset2DAsync: rows of an odd
// number of floats are not 16-byte aligned, and the 2-D copies of them ran at about a third of the
// copy bandwidth (docs/results/calibrate.md: kbv's padded L1 #8 1.36 ms on an H200, of which the
// GEMM is ~0.89 ms, against torch.compile's two Triton pad kernels at ~0.11 ms).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace kbv::ops::baseline {

// dst [dst_rows, dst_cols] (dst_cols a multiple of 4, dst 16-byte aligned) = src [rows, cols]
// (dense, rows ≤ dst_rows, cols ≤ dst_cols) with every other element zero: one pass, each thread
// writing four floats at once.
void pad_matrix(float* dst, int64_t dst_rows, int64_t dst_cols, const float* src, int64_t rows, int64_t cols, cudaStream_t stream);

// dst [rows, cols] (dense) = the first rows × cols of src [·, src_cols].
void crop_matrix(float* dst, int64_t rows, int64_t cols, const float* src, int64_t src_cols, cudaStream_t stream);

}  // namespace kbv::ops::baseline
