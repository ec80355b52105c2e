// daemon/ops/cross_entropy/baseline.cu — cross_entropy's CUDA baseline, fused as torch.compile
// fuses it: one pass over the logits, a warp per row (online max and Σ exp, and the target's
// logit) writing each row's loss, then their mean in one block. PyTorch eager writes the whole
// log_softmax first (4 bytes per logit written and read again by nll_loss): the fused form reads
// each logit once and is never slower, so it cannot inflate a speedup (issue #13: the library
// within 5 % of the faster of eager and torch.compile). TF32 and FP32 run the same kernels.
#include <memory>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::cross_entropy {
namespace {

using namespace baseline;
using namespace baseline::device;

// Rows per block of the loss pass, one warp each: 256-thread blocks, enough blocks to fill the
// GPU for any batch of more than a few thousand rows.
constexpr int kRowsPerBlock = 8;
// The mean's one block: each thread sums rows / 1024 losses, in a fixed order (deterministic).
constexpr int kMeanThreads = 1024;

// Targets arrive widened to float (exact class indices: tensor/dtype.hpp). kVector: float4 loads
// (classes % 4 == 0 and 16-byte aligned logits).
template <bool kVector>
__global__ void row_losses(const float* __restrict__ logits, const float* __restrict__ targets, float* __restrict__ losses,
                           int64_t rows, int64_t classes) {
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kWarpSize;
  for (int64_t row = first; row < rows; row += static_cast<int64_t>(gridDim.x) * kRowsPerBlock) {
    const float* xr = logits + row * classes;
    MaxSum acc = max_sum_empty();
    if (kVector) {
      const float4* x4 = reinterpret_cast<const float4*>(xr);
#pragma unroll 4
      for (int64_t i = lane; i < classes / 4; i += kWarpSize) {
        max_sum_add4(acc, x4[i]);
      }
    } else {
      for (int64_t i = lane; i < classes; i += kWarpSize) max_sum_add(acc, xr[i]);
    }
    acc = warp_max_sum(acc);
    if (lane == 0) losses[row] = (acc.max + logf(acc.sum)) - xr[static_cast<int64_t>(targets[row])];
  }
}

__global__ void mean_of(const float* __restrict__ losses, float* __restrict__ out, int64_t rows) {
  __shared__ float shared[kMaxWarpsPerBlock];
  float total = 0.f;
  for (int64_t n = threadIdx.x; n < rows; n += blockDim.x) total += losses[n];
  total = block_sum(total, shared);
  if (threadIdx.x == 0) out[0] = total / static_cast<float>(rows);
}

class CrossEntropyStep final : public cuda::measure::NodeStep {
 public:
  CrossEntropyStep(int64_t rows, int64_t classes, cuda::measure::LibraryContext& context)
      : rows_(rows), classes_(classes), context_(context) {
    context_.reserve_scratch(static_cast<size_t>(rows) * sizeof(float));  // one loss per row
  }
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    auto* losses = static_cast<float*>(context_.scratch());
    if (rows_ > 0) {  // no rows: the mean is 0/0, NaN, as PyTorch's
      const unsigned blocks = row_blocks((rows_ + kRowsPerBlock - 1) / kRowsPerBlock);
      const int threads = kRowsPerBlock * kWarpSize;
      if (classes_ % 4 == 0 && aligned16(in[0]))
        row_losses<true><<<blocks, threads, 0, stream>>>(in[0], in[1], losses, rows_, classes_);
      else
        row_losses<false><<<blocks, threads, 0, stream>>>(in[0], in[1], losses, rows_, classes_);
      cuda::check_launch("kbv cross_entropy row-loss kernel");
    }
    mean_of<<<1, kMeanThreads, 0, stream>>>(losses, out, rows_);
    cuda::check_launch("kbv cross_entropy mean kernel");
  }
  std::string describe() const override {
    return "kbv fused cross_entropy rows=" + std::to_string(rows_) + " classes=" + std::to_string(classes_) +
           ": a warp per row (online max and sum of exp, the target's logit) writes the row's loss, then their mean in one "
           "block, as torch.compile fuses it";
  }

 private:
  int64_t rows_, classes_;
  cuda::measure::LibraryContext& context_;
};

}  // namespace

std::unique_ptr<cuda::measure::NodeStep> make_baseline_step(const cuda::measure::NodeContext& node,
                                                            cuda::measure::LibraryContext& context) {
  const Shape& logits = node.input_shapes.at(0);
  return std::make_unique<CrossEntropyStep>(logits.at(0), logits.at(1), context);
}

}  // namespace kbv::ops::cross_entropy
