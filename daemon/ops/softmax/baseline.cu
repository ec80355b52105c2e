// daemon/ops/softmax/baseline.cu — softmax's CUDA baseline: one kbv kernel per application with an
// online (max, sum of exp) reduction. inner == 1: one block per row, warp-shuffle reductions
// (PyTorch's cunn_SoftMaxForward; ops/common/baseline/softmax_rows_f32.cuh, which sdpa shares);
// inner > 1: 32 adjacent columns per block, the axis split over 8 thread rows
// (ops/common/baseline/axis_f32.cuh).
#include <memory>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/softmax_rows_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::softmax {
namespace {

using namespace baseline;
using namespace baseline::device;

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

void launch_softmax(const AxisSplit& split, const float* x, float* y, cudaStream_t stream) {
  if (split.outer * split.extent * split.inner == 0) return;
  if (split.inner == 1) {
    launch_softmax_rows(x, y, split.outer, split.extent, 0, stream);
    return;
  }
  softmax_column_kernel<<<column_grid(split), kColumnBlock, 0, stream>>>(
      x, y, split.outer, split.extent, split.inner);
  cuda::check_launch("kbv softmax kernel");
}

class SoftmaxStep final : public cuda::measure::NodeStep {
 public:
  explicit SoftmaxStep(AxisSplit split) : split_(split) {}
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    launch_softmax(split_, in[0], out, stream);
  }
  std::string describe() const override { return "kbv softmax kernel " + split_text(split_); }

 private:
  AxisSplit split_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext&) {
  return std::make_unique<SoftmaxStep>(baseline::split_at_axis(node, "axis"));
}

}  // namespace kbv::ops::softmax
