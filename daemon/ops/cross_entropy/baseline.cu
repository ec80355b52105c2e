// daemon/ops/cross_entropy/baseline.cu — cross_entropy's CUDA baseline as PyTorch eager runs
// F.cross_entropy: log_softmax writes every row's log-probabilities (one block per row,
// cunn_SoftMaxForward's online max and sum), then nll_loss gathers −logp[n, target] and takes the
// mean in one block of 32 threads (nll_loss_forward_reduce_cuda_kernel_2d, NLL_LOSS_THREADS,
// aten/src/ATen/native/cuda/Loss.cu). TF32 and FP32 run the same kernels (no tensor cores).
#include <memory>

#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/axis_f32.cuh"
#include "ops/common/baseline/step_support.hpp"

namespace kbv::ops::cross_entropy {
namespace {

using namespace baseline;
using namespace baseline::device;

// PyTorch's NLL_LOSS_THREADS: the single block nll_loss's mean reduction runs in.
constexpr int kNllThreads = 32;

__global__ void log_softmax_rows(const float* __restrict__ x, float* __restrict__ logp, int64_t rows, int64_t classes) {
  __shared__ MaxSum shared[kMaxWarpsPerBlock];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = x + row * classes;
    float* out = logp + row * classes;
    MaxSum acc = max_sum_empty();
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) max_sum_add(acc, xr[c]);
    const MaxSum total = block_max_sum(acc, shared);
    const float log_sum = logf(total.sum);
    for (int64_t c = threadIdx.x; c < classes; c += blockDim.x) out[c] = xr[c] - total.max - log_sum;
  }
}

// Targets arrive widened to float (exact class indices: tensor/dtype.hpp).
__global__ void nll_mean(const float* __restrict__ logp, const float* __restrict__ targets, float* __restrict__ out, int64_t rows,
                         int64_t classes) {
  __shared__ float sums[kNllThreads];
  float total = 0.f;
  for (int64_t n = threadIdx.x; n < rows; n += kNllThreads) total -= logp[n * classes + static_cast<int64_t>(targets[n])];
  sums[threadIdx.x] = total;
  __syncthreads();
  if (threadIdx.x == 0) {
    float all = 0.f;
    for (int t = 0; t < kNllThreads; ++t) all += sums[t];
    out[0] = all / static_cast<float>(rows);
  }
}

class CrossEntropyStep final : public cuda::measure::NodeStep {
 public:
  CrossEntropyStep(int64_t rows, int64_t classes, cuda::measure::LibraryContext& context)
      : rows_(rows), classes_(classes), context_(context) {
    context_.reserve_scratch(static_cast<size_t>(rows * classes) * sizeof(float));  // log_softmax's output
  }
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    auto* logp = static_cast<float*>(context_.scratch());
    log_softmax_rows<<<row_blocks(rows_), row_threads(classes_), 0, stream>>>(in[0], logp, rows_, classes_);
    cuda::check_launch("kbv cross_entropy log_softmax kernel");
    nll_mean<<<1, kNllThreads, 0, stream>>>(logp, in[1], out, rows_, classes_);
    cuda::check_launch("kbv cross_entropy nll_loss kernel");
  }
  std::string describe() const override {
    return "kbv log_softmax rows=" + std::to_string(rows_) + " classes=" + std::to_string(classes_) +
           " into a workspace, then nll_loss mean (one block of 32 threads), as PyTorch eager";
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
