// ops/common/baseline/scan_f32.cuh — the CUDA fp32 baseline of cumsum and cumprod, as PyTorch
// eager's scan kernels: along the innermost axis (inner == 1) one block per row walks it in
// chunks of blockDim elements, each chunk scanned with warp shuffles and per-warp totals, then
// offset by the running total of the chunks before (tensor_kernel_scan_innermost_dim's shape);
// along any other axis one thread per column walks it in order (tensor_kernel_scan_outer_dim).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "common/cuda_error.hpp"
#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"

namespace kbv::ops::baseline {

struct ScanShape {
  AxisSplit split;
  bool reverse = false;
  bool exclusive = false;
};

template <bool kProduct>
__device__ __forceinline__ float scan_combine(float a, float b) {
  return kProduct ? a * b : a + b;
}

// Inclusive scan of one value per thread over the block, in thread order; also the exclusive
// value and the block's total. blockDim.x is a multiple of 32; `warp_offsets` holds
// kMaxWarpsPerBlock + 1 floats. Ends with a barrier so the shared memory can be reused.
template <bool kProduct>
__device__ void block_scan(float value, float& inclusive, float& exclusive, float& total, float* warp_offsets) {
  const float identity = kProduct ? 1.f : 0.f;
  const int lane = threadIdx.x % device::kWarpSize;
  const int warp = threadIdx.x / device::kWarpSize;
  const int warps = blockDim.x / device::kWarpSize;
  float in_warp = value;
#pragma unroll
  for (int offset = 1; offset < device::kWarpSize; offset *= 2) {
    const float before = __shfl_up_sync(device::kFullMask, in_warp, offset);
    if (lane >= offset) in_warp = scan_combine<kProduct>(before, in_warp);
  }
  float before_in_warp = __shfl_up_sync(device::kFullMask, in_warp, 1);
  if (lane == 0) before_in_warp = identity;
  if (lane == device::kWarpSize - 1) warp_offsets[warp] = in_warp;
  __syncthreads();
  if (warp == 0) {
    float warp_total = lane < warps ? warp_offsets[lane] : identity;
#pragma unroll
    for (int offset = 1; offset < device::kWarpSize; offset *= 2) {
      const float before = __shfl_up_sync(device::kFullMask, warp_total, offset);
      if (lane >= offset) warp_total = scan_combine<kProduct>(before, warp_total);
    }
    float before_warp = __shfl_up_sync(device::kFullMask, warp_total, 1);
    if (lane == 0) before_warp = identity;
    __syncwarp();
    if (lane < warps) warp_offsets[lane] = before_warp;
    if (lane == warps - 1) warp_offsets[device::kMaxWarpsPerBlock] = warp_total;
  }
  __syncthreads();
  inclusive = scan_combine<kProduct>(warp_offsets[warp], in_warp);
  exclusive = scan_combine<kProduct>(warp_offsets[warp], before_in_warp);
  total = warp_offsets[device::kMaxWarpsPerBlock];
  __syncthreads();
}

template <bool kProduct>
__global__ void scan_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t extent,
                                 bool reverse, bool exclusive) {
  __shared__ float warp_offsets[device::kMaxWarpsPerBlock + 1];
  const float identity = kProduct ? 1.f : 0.f;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * extent;
    float* yr = y + row * extent;
    float carry = identity;  // the chunks before, the same in every thread
    for (int64_t start = 0; start < extent; start += blockDim.x) {
      const int64_t k = start + threadIdx.x;
      const int64_t at = reverse ? extent - 1 - k : k;
      const float value = k < extent ? xr[at] : identity;
      float inclusive, before, total;
      block_scan<kProduct>(value, inclusive, before, total, warp_offsets);
      if (k < extent) yr[at] = scan_combine<kProduct>(carry, exclusive ? before : inclusive);
      carry = scan_combine<kProduct>(carry, total);
    }
  }
}

template <bool kProduct>
__global__ void scan_columns_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t lines, int64_t extent,
                                    int64_t inner, bool reverse, bool exclusive) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t line = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; line < lines; line += stride) {
    const int64_t base = (line / inner) * extent * inner + line % inner;
    float running = kProduct ? 1.f : 0.f;
    for (int64_t k = 0; k < extent; ++k) {
      const int64_t at = base + (reverse ? extent - 1 - k : k) * inner;
      const float value = x[at];
      if (exclusive) y[at] = running;
      running = scan_combine<kProduct>(running, value);
      if (!exclusive) y[at] = running;
    }
  }
}

constexpr int kScanColumnThreads = 256;
constexpr int64_t kMaxScanColumnBlocks = 65535;

template <bool kProduct>
void launch_scan(const ScanShape& scan, const float* x, float* y, cudaStream_t stream) {
  const AxisSplit& s = scan.split;
  if (s.outer * s.extent * s.inner == 0) return;
  if (s.inner == 1) {
    scan_rows_kernel<kProduct><<<row_blocks(s.outer), row_threads(s.extent), 0, stream>>>(
        x, y, s.outer, s.extent, scan.reverse, scan.exclusive);
  } else {
    const int64_t lines = s.outer * s.inner;
    const auto blocks = static_cast<unsigned>(
        std::min((lines + kScanColumnThreads - 1) / kScanColumnThreads, kMaxScanColumnBlocks));
    scan_columns_kernel<kProduct><<<blocks, kScanColumnThreads, 0, stream>>>(x, y, lines, s.extent, s.inner,
                                                                             scan.reverse, scan.exclusive);
  }
  cuda::check_launch(kProduct ? "kbv cumprod kernel" : "kbv cumsum kernel");
}

template <bool kProduct>
class ScanStep final : public cuda::measure::NodeStep {
 public:
  explicit ScanStep(ScanShape scan) : scan_(scan) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_scan<kProduct>(scan_, in[0], out, stream);
  }
  std::string describe() const override {
    return std::string(kProduct ? "kbv cumprod kernel " : "kbv cumsum kernel ") + split_text(scan_.split) +
           (scan_.reverse ? " reverse" : "") + (scan_.exclusive ? " exclusive" : "");
  }

 private:
  ScanShape scan_;
};

}  // namespace kbv::ops::baseline
