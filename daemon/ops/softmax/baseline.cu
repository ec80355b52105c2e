// daemon/ops/softmax/baseline.cu — softmax's CUDA baseline: one kbv kernel per application with an
// online (max, sum of exp) reduction. inner == 1: one block per row, warp-shuffle reductions
// (PyTorch's cunn_SoftMaxForward); inner > 1: 32 adjacent columns per block, the axis split over
// 8 thread rows (ops/common/baseline/axis_f32.cuh).
#include <algorithm>
#include <memory>

#include "measure/baseline/node_step.hpp"
#include "measure/support/device_attributes.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::softmax {
namespace {

using namespace baseline;
using namespace baseline::device;

template <bool kVector>
__global__ void softmax_row_kernel(const float* __restrict__ x, float* __restrict__ y,
                                   int64_t rows, int64_t extent) {
  __shared__ MaxSum shared[kMaxWarpsPerBlock];
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
    const MaxSum total = block_max_sum(acc, shared);
    // One division per row; the elements multiply (within an ulp of dividing each).
    const float inverse = 1.f / total.sum;
    if (kVector) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
      float4* y4 = reinterpret_cast<float4*>(yr);
#pragma unroll 4
      for (int64_t i = threadIdx.x; i < extent / 4; i += blockDim.x) {
        const float4 v = x4[i];
        y4[i] = make_float4(expf(v.x - total.max) * inverse, expf(v.y - total.max) * inverse,
                            expf(v.z - total.max) * inverse, expf(v.w - total.max) * inverse);
      }
    } else {
      for (int64_t i = threadIdx.x; i < extent; i += blockDim.x)
        yr[i] = expf(xr[i] - total.max) * inverse;
    }
  }
}

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
        yo[a * inner] = expf(xo[a * inner] - total.max) / total.sum;
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

unsigned row_grid(int64_t rows, int64_t row_bytes, int sm_count, size_t l2_bytes) {
  const auto fitting = static_cast<int64_t>(kRowsInFlightL2Share * static_cast<double>(l2_bytes) /
                                            static_cast<double>(std::max<int64_t>(row_bytes, 1)));
  return row_blocks(std::min(rows, std::max<int64_t>(fitting, sm_count)));
}

void launch_softmax(const AxisSplit& split, unsigned grid, const float* x, float* y, cudaStream_t stream) {
  if (split.outer * split.extent * split.inner == 0) return;
  if (split.inner == 1) {
    const bool vector = vectorizable(split.extent, x, y);
    const int threads = row_threads(vector ? split.extent / 4 : split.extent);
    if (vector)
      softmax_row_kernel<true><<<grid, threads, 0, stream>>>(x, y, split.outer, split.extent);
    else
      softmax_row_kernel<false><<<grid, threads, 0, stream>>>(x, y, split.outer, split.extent);
  } else {
    softmax_column_kernel<<<column_grid(split), kColumnBlock, 0, stream>>>(
        x, y, split.outer, split.extent, split.inner);
  }
  cuda::check_launch("kbv softmax kernel");
}

class SoftmaxStep final : public cuda::measure::NodeStep {
 public:
  SoftmaxStep(AxisSplit split, int sm_count, size_t l2_bytes)
      : split_(split), row_grid_(row_grid(split.outer, split.extent * static_cast<int64_t>(sizeof(float)), sm_count, l2_bytes)) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_softmax(split_, row_grid_, in[0], out, stream);
  }
  std::string describe() const override {
    return "kbv softmax kernel " + split_text(split_) + (split_.inner == 1 ? " rows in flight=" + std::to_string(row_grid_) : "");
  }

 private:
  AxisSplit split_;
  unsigned row_grid_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  return std::make_unique<SoftmaxStep>(baseline::split_at_axis(node, "axis"), context.sm_count(),
                                       cuda::measure::current_l2_bytes());
}

}  // namespace kbv::ops::softmax
