// ops/common/baseline/softmax_rows_f32.cuh — kbv's fp32 softmax over contiguous rows, one block per
// row with an online (max, sum of exp) reduction and warp-shuffle combines (PyTorch's
// cunn_SoftMaxForward), float4 loads where the row allows. Shared by softmax (inner == 1) and
// sdpa, whose causal rows see only their first min(i + 1, extent) columns and write 0 past them
// (the −inf mask's exp).
#pragma once

#include <cstdint>

#include "common/cuda_error.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/device_math.cuh"

namespace kbv::ops::baseline {

// Row `row` of a causal stack of [period, extent] matrices keeps columns j ≤ row % period;
// period 0: every column.
__device__ __forceinline__ int64_t softmax_row_limit(int64_t row, int64_t extent, int64_t period) {
  if (period == 0) return extent;
  const int64_t limit = row % period + 1;
  return limit < extent ? limit : extent;
}

template <bool kVector>
__global__ void softmax_row_kernel(const float* __restrict__ x, float* __restrict__ y,
                                   int64_t rows, int64_t extent, int64_t causal_period) {
  __shared__ device::MaxSum shared[device::kMaxWarpsPerBlock];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * extent;
    float* yr = y + row * extent;
    device::MaxSum acc = device::max_sum_empty();
    if (kVector) {  // causal_period is 0 here (launch_softmax_rows)
      const float4* x4 = reinterpret_cast<const float4*>(xr);
#pragma unroll 4
      for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
        const float4 v = x4[i];
        device::max_sum_add(acc, v.x);
        device::max_sum_add(acc, v.y);
        device::max_sum_add(acc, v.z);
        device::max_sum_add(acc, v.w);
      }
    } else {
      const int64_t limit = softmax_row_limit(row, extent, causal_period);
      for (int64_t i = threadIdx.x; i < limit; i += blockDim.x) device::max_sum_add(acc, xr[i]);
    }
    const device::MaxSum total = device::block_max_sum(acc, shared);
    if (kVector) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
      float4* y4 = reinterpret_cast<float4*>(yr);
#pragma unroll 4
      for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
        const float4 v = x4[i];
        y4[i] = make_float4(expf(v.x - total.max) / total.sum, expf(v.y - total.max) / total.sum,
                            expf(v.z - total.max) / total.sum, expf(v.w - total.max) / total.sum);
      }
    } else {
      const int64_t limit = softmax_row_limit(row, extent, causal_period);
      for (int64_t i = threadIdx.x; i < extent; i += blockDim.x)
        yr[i] = i < limit ? expf(xr[i] - total.max) / total.sum : 0.f;
    }
  }
}

// y = softmax of each of the `rows` contiguous rows of x (length `extent`), out of place;
// causal_period > 0 masks as softmax_row_limit says. Asynchronous on `stream`.
inline void launch_softmax_rows(const float* x, float* y, int64_t rows, int64_t extent,
                                int64_t causal_period, cudaStream_t stream) {
  if (rows * extent == 0) return;
  const bool vector = causal_period == 0 && vectorizable(extent, x, y);
  const int threads = row_threads(vector ? extent / 4 : extent);
  if (vector)
    softmax_row_kernel<true><<<row_blocks(rows), threads, 0, stream>>>(x, y, rows, extent, 0);
  else
    softmax_row_kernel<false><<<row_blocks(rows), threads, 0, stream>>>(x, y, rows, extent,
                                                                        causal_period);
  cuda::check_launch("kbv softmax kernel");
}

}  // namespace kbv::ops::baseline
