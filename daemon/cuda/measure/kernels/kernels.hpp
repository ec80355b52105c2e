// kernels/kernels.hpp — kbv's own CUDA kernel for maxpool2d, which PyTorch eager runs as one
// native kernel. Host-callable launchers:
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

// Max pooling over [planes = N·C, H, W]; padding counts as -inf; NaN propagates.
struct Pool2dGeometry {
  int64_t planes = 0;
  int64_t in_h = 0, in_w = 0;
  int64_t out_h = 0, out_w = 0;
  int kernel = 1, stride = 1, padding = 0, dilation = 1;
};
void launch_maxpool2d(const Pool2dGeometry& geometry, const float* x, float* y,
                      cudaStream_t stream);

}  // namespace kbv::cuda::kernels
