// kernels/kernels.hpp — kbv's own CUDA kernels for the ops PyTorch eager runs as one native
// kernel each (softmax, norms, pooling). Host-callable launchers:
// each enqueues its kernel(s) on `stream` and throws CudaError if the launch fails.
//
// All tensors are dense row-major fp32. Vectorised (float4) paths are taken when pointers are
// 16-byte aligned and the contiguous extent is a multiple of 4, as PyTorch's vectorised
// elementwise and norm kernels do; otherwise a scalar path computes the same values.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "ops/op_support.hpp"
#include "tensor/shape.hpp"

namespace kbv::cuda::kernels {

using op_support::AxisSplit;

// ---- along one axis: [outer, extent, inner] (op_support::split_at_axis) ----
// inner == 1: one block per row, warp-shuffle reductions (PyTorch's cunn_SoftMaxForward);
// inner > 1: 32 adjacent columns per block, the axis split over 8 thread rows.
void launch_softmax(const AxisSplit& split, const float* x, float* y, cudaStream_t stream);

// y = x / sqrt(mean(x², axis) + eps), one fused kernel.
void launch_rmsnorm(const AxisSplit& split, float eps, const float* x, float* y,
                    cudaStream_t stream);

// ---- layernorm over the last `cols` elements of each of `rows` rows (Welford) ----
struct LayerNormGeometry {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t chunks = 1;      // blocks per row; 1 = one fused kernel, else moments + normalise
  int64_t chunk_cols = 0;  // columns per chunk (a multiple of 4)
};
// Splits long rows across blocks when there are too few rows to fill `sm_count` SMs.
LayerNormGeometry plan_layernorm(int64_t rows, int64_t cols, int sm_count);
// Device scratch the split path needs for per-chunk partial moments (0 when chunks == 1).
size_t layernorm_scratch_bytes(const LayerNormGeometry& geometry);
// weight and bias may be null (no affine part).
void launch_layernorm(const LayerNormGeometry& geometry, float eps, const float* x,
                      const float* weight, const float* bias, float* y, void* scratch,
                      cudaStream_t stream);

// ---- max pooling over [planes = N·C, H, W]; padding counts as -inf; NaN propagates ----
struct Pool2dGeometry {
  int64_t planes = 0;
  int64_t in_h = 0, in_w = 0;
  int64_t out_h = 0, out_w = 0;
  int kernel = 1, stride = 1, padding = 0, dilation = 1;
};
void launch_maxpool2d(const Pool2dGeometry& geometry, const float* x, float* y,
                      cudaStream_t stream);

// Number of SMs of the current device (cached per device), for grid sizing.
int current_sm_count();

}  // namespace kbv::cuda::kernels
