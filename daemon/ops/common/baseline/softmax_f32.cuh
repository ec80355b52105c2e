// ops/common/baseline/softmax_f32.cuh — the CUDA baseline kernels of softmax and log_softmax:
// one kbv kernel per application with an online (max, sum of exp) reduction. inner == 1: one
// block per row, warp-shuffle reductions (PyTorch's cunn_SoftMaxForward), rows of 16384–65536
// floats held on chip instead (softmax_resident_f32.cuh); inner > 1: 32 adjacent
// columns per block, the axis split over 8 thread rows (ops/common/baseline/axis_f32.cuh). The
// row kernel also serves sdpa, whose causal rows see only their first min(i + 1, extent) columns
// and write 0 past them (the −inf mask's exp).
#pragma once

#include <algorithm>
#include <memory>
#include <span>
#include <string>

#include "measure/baseline/node_step.hpp"
#include "measure/support/device_attributes.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/softmax_resident_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::baseline {

// What each output of a line needs from the line's (max, Σ exp(x − max)): softmax multiplies by
// 1/Σ (one division per line, within an ulp of dividing each element), log_softmax subtracts
// max + log Σ (PyTorch's log_softmax epilogue).
struct LineTotal {
  float max, scale, shift;
};
template <bool kLog>
__device__ __forceinline__ LineTotal line_total(MaxSum total) {
  return kLog ? LineTotal{total.max, 1.f, total.max + logf(total.sum)} : LineTotal{total.max, 1.f / total.sum, 0.f};
}
template <bool kLog>
__device__ __forceinline__ float normalised(float x, const LineTotal& t) {
  return kLog ? x - t.shift : expf(x - t.max) * t.scale;
}

// Row `row` of a causal stack of [period, extent] matrices keeps columns j ≤ row % period;
// period 0: every column.
__device__ __forceinline__ int64_t softmax_row_limit(int64_t row, int64_t extent, int64_t period) {
  if (period == 0) return extent;
  const int64_t limit = row % period + 1;
  return limit < extent ? limit : extent;
}

// kVector: float4 loads and stores, causal_period 0 (launch_softmax_rows).
template <bool kLog, bool kVector>
__global__ void softmax_row_kernel(const float* __restrict__ x, float* __restrict__ y,
                                   int64_t rows, int64_t extent, int64_t causal_period) {
  __shared__ MaxSum shared[device::kMaxWarpsPerBlock];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * extent;
    float* yr = y + row * extent;
    MaxSum acc = max_sum_empty();
    if (kVector) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
#pragma unroll 4
      for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
        device::max_sum_add4(acc, x4[i]);
      }
    } else {
      const int64_t limit = softmax_row_limit(row, extent, causal_period);
      for (int64_t i = threadIdx.x; i < limit; i += blockDim.x) max_sum_add(acc, xr[i]);
    }
    const LineTotal total = line_total<kLog>(device::block_max_sum(acc, shared));
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
      const int64_t limit = softmax_row_limit(row, extent, causal_period);
      for (int64_t i = threadIdx.x; i < extent; i += blockDim.x)
        yr[i] = i < limit ? normalised<kLog>(xr[i], total) : (kLog ? -INFINITY : 0.f);
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
    MaxSum sums = partial[0][threadIdx.x];
#pragma unroll
    for (int s = 1; s < kColumnSlices; ++s) sums = max_sum_combine(sums, partial[s][threadIdx.x]);
    const LineTotal total = line_total<kLog>(sums);
    if (active) {
#pragma unroll 4
      for (int64_t a = threadIdx.y; a < extent; a += kColumnSlices)
        yo[a * inner] = normalised<kLog>(xo[a * inner], total);
    }
    __syncthreads();  // `partial` is rewritten for the next `o`
  }
}

// The row kernel reads each row twice (the (max, sum) pass, then the output pass). Rows in
// flight at once are the grid's blocks (each walks its rows in turn); their bytes are kept to
// kRowsInFlightL2Share of L2 so the second read of a row finds it there rather than in DRAM
// (KernelBench L1 #23's 256 KiB rows: 264 resident 1024-thread blocks on an H200 held 67 MB,
// more than its 60 MiB L2). Never fewer blocks than SMs, which would leave SMs idle.
constexpr double kRowsInFlightL2Share = 0.5;

inline unsigned row_grid(int64_t rows, int64_t row_bytes, int sm_count, size_t l2_bytes) {
  const auto fitting = static_cast<int64_t>(kRowsInFlightL2Share * static_cast<double>(l2_bytes) /
                                            static_cast<double>(std::max<int64_t>(row_bytes, 1)));
  return row_blocks(std::min(rows, std::max<int64_t>(fitting, sm_count)));
}

// y = (log_)softmax of each of the `rows` contiguous rows of x (length `extent`) on `grid` blocks,
// out of place; causal_period > 0 masks as softmax_row_limit says. Asynchronous on `stream`.
template <bool kLog>
void launch_softmax_rows(const float* x, float* y, int64_t rows, int64_t extent, int64_t causal_period,
                         unsigned grid, cudaStream_t stream) {
  if (rows * extent == 0) return;
  const bool vector = causal_period == 0 && vectorizable(extent, x, y);
  const int threads = row_threads(vector ? extent / 4 : extent);
  if (vector)
    softmax_row_kernel<kLog, true><<<grid, threads, 0, stream>>>(x, y, rows, extent, 0);
  else
    softmax_row_kernel<kLog, false><<<grid, threads, 0, stream>>>(x, y, rows, extent, causal_period);
}

template <bool kLog>
void launch_softmax(const AxisSplit& split, unsigned grid, const float* x, float* y, cudaStream_t stream) {
  if (split.outer * split.extent * split.inner == 0) return;
  if (split.inner == 1 && resident_rows(split.extent) && vectorizable(split.extent, x, y)) {
    launch_softmax_resident<kLog>(x, y, split.outer, split.extent, stream);
  } else if (split.inner == 1) {
    launch_softmax_rows<kLog>(x, y, split.outer, split.extent, 0, grid, stream);
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
  SoftmaxStep(AxisSplit split, int sm_count, size_t l2_bytes)
      : split_(split), row_grid_(row_grid(split.outer, split.extent * static_cast<int64_t>(sizeof(float)), sm_count, l2_bytes)) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_softmax<kLog>(split_, row_grid_, in[0], out, stream);
  }
  std::string describe() const override {
    std::string rows;
    if (split_.inner == 1 && resident_rows(split_.extent))
      rows = " rows held on chip (softmax_resident_f32.cuh; two-pass, rows in flight=" + std::to_string(row_grid_) +
             ", if not 16-byte aligned)";
    else if (split_.inner == 1)
      rows = " rows in flight=" + std::to_string(row_grid_);
    return std::string(kLog ? "kbv log_softmax kernel " : "kbv softmax kernel ") + split_text(split_) + rows;
  }

 private:
  AxisSplit split_;
  unsigned row_grid_;
};

// The step of a softmax-like node, sized for the current device.
template <bool kLog>
std::unique_ptr<cuda::measure::NodeStep> make_softmax_step(const cuda::measure::NodeContext& node, cuda::measure::LibraryContext& context) {
  return std::make_unique<SoftmaxStep<kLog>>(split_at_axis(node, "axis"), context.sm_count(), cuda::measure::current_l2_bytes());
}

}  // namespace kbv::ops::baseline
