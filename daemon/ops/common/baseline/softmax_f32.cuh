// ops/common/baseline/softmax_f32.cuh — the CUDA baseline kernels of softmax and log_softmax:
// one kbv kernel per application with an online (max, sum of exp) reduction. inner == 1: one
// block per row, warp-shuffle reductions (PyTorch's cunn_SoftMaxForward); inner > 1: 32 adjacent
// columns per block, the axis split over 8 thread rows (ops/common/baseline/axis_f32.cuh).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"

namespace kbv::ops::baseline {

// One output from its input and the line's (max, Σ exp(x − max)): exp(x − max)/Σ, or for
// log_softmax x − max − log Σ (PyTorch's log_softmax epilogue).
template <bool kLog>
__device__ __forceinline__ float normalised(float x, MaxSum total) {
  return kLog ? x - total.max - logf(total.sum) : expf(x - total.max) / total.sum;
}

template <bool kLog, bool kVector>
__global__ void softmax_row_kernel(const float* __restrict__ x, float* __restrict__ y,
                                   int64_t rows, int64_t extent) {
  __shared__ MaxSum shared[device::kMaxWarpsPerBlock];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * extent;
    float* yr = y + row * extent;
    MaxSum acc = max_sum_empty();
    if (kVector) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
#pragma unroll 4
      for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
        const float4 v = x4[i];
        max_sum_add(acc, v.x);
        max_sum_add(acc, v.y);
        max_sum_add(acc, v.z);
        max_sum_add(acc, v.w);
      }
    } else {
      for (int64_t i = threadIdx.x; i < extent; i += blockDim.x) max_sum_add(acc, xr[i]);
    }
    const MaxSum total = device::block_max_sum(acc, shared);
    if (kVector) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
      float4* y4 = reinterpret_cast<float4*>(yr);
#pragma unroll 4
      for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
        const float4 v = x4[i];
        y4[i] = make_float4(normalised<kLog>(v.x, total), normalised<kLog>(v.y, total),
                            normalised<kLog>(v.z, total), normalised<kLog>(v.w, total));
      }
    } else {
      for (int64_t i = threadIdx.x; i < extent; i += blockDim.x)
        yr[i] = normalised<kLog>(xr[i], total);
    }
  }
}

template <bool kLog>
__global__ void softmax_column_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      int64_t outer, int64_t extent, int64_t inner) {
  __shared__ MaxSum partial[kColumnSlices][kColumnTile];
  const int64_t column = static_cast<int64_t>(blockIdx.x) * kColumnTile + threadIdx.x;
  const bool active = column < inner;
  for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
    const float* xo = x + o * extent * inner + column;
    float* yo = y + o * extent * inner + column;
    MaxSum acc = max_sum_empty();
    if (active) {
#pragma unroll 4
      for (int64_t a = threadIdx.y; a < extent; a += kColumnSlices)
        max_sum_add(acc, xo[a * inner]);
    }
    partial[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    MaxSum total = partial[0][threadIdx.x];
#pragma unroll
    for (int s = 1; s < kColumnSlices; ++s) total = max_sum_combine(total, partial[s][threadIdx.x]);
    if (active) {
#pragma unroll 4
      for (int64_t a = threadIdx.y; a < extent; a += kColumnSlices)
        yo[a * inner] = normalised<kLog>(xo[a * inner], total);
    }
    __syncthreads();  // `partial` is rewritten for the next `o`
  }
}

template <bool kLog>
void launch_softmax(const AxisSplit& split, const float* x, float* y, cudaStream_t stream) {
  if (split.outer * split.extent * split.inner == 0) return;
  if (split.inner == 1) {
    const bool vector = vectorizable(split.extent, x, y);
    const int threads = row_threads(vector ? split.extent / 4 : split.extent);
    if (vector)
      softmax_row_kernel<kLog, true><<<row_blocks(split.outer), threads, 0, stream>>>(
          x, y, split.outer, split.extent);
    else
      softmax_row_kernel<kLog, false><<<row_blocks(split.outer), threads, 0, stream>>>(
          x, y, split.outer, split.extent);
  } else {
    softmax_column_kernel<kLog><<<column_grid(split), kColumnBlock, 0, stream>>>(
        x, y, split.outer, split.extent, split.inner);
  }
  cuda::check_launch(kLog ? "kbv log_softmax kernel" : "kbv softmax kernel");
}

// The baseline step: one launch_softmax per run.
template <bool kLog>
class SoftmaxStep final : public cuda::measure::NodeStep {
 public:
  explicit SoftmaxStep(AxisSplit split) : split_(split) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_softmax<kLog>(split_, in[0], out, stream);
  }
  std::string describe() const override {
    return std::string(kLog ? "kbv log_softmax kernel " : "kbv softmax kernel ") + split_text(split_);
  }

 private:
  AxisSplit split_;
};

}  // namespace kbv::ops::baseline
