// daemon/ops/cross_entropy/baseline.cu — cross_entropy's CUDA baseline, fused as torch.compile
// fuses it: one pass over the logits, a block per row held in registers (rows of up to 8192
// logits) or a warp per row (online max and Σ exp), writing each row's loss, then their mean in
// one block. PyTorch eager writes the whole log_softmax first (4 bytes per logit written and read
// again by nll_loss): the fused form reads each logit once and is never slower, so it cannot
// inflate a speedup (issue #13: the library within 5 % of the faster of eager and torch.compile).
// TF32 and FP32 run the same kernels.
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

// Rows of up to kResidentRowThreads × 4 × kMaxResidentVectors logits (8192) are held in registers
// by a block of kResidentRowThreads, each thread kVectors float4 (a power of two that covers the
// row), and reduced twice from there: the row's max, then Σ exp(x − max) with one exp per logit
// and every load issued before the first reduction. The warp-per-row kernel above folds each logit
// into a running (max, Σ exp), a chain of dependent exps with a branch on every new max: on the
// H100 it took 0.2326 ms at the default 32768 × 4096 where torch.compile's fused reduction took
// 0.2028 (r74, docs/results/h100/calibrate-torch.md). As PyTorch's logsumexp, an infinite max
// shifts by 0 instead (an +inf logit gives an infinite loss, not NaN; an all −inf row NaN).
constexpr int kResidentRowThreads = 128;
constexpr int kMaxResidentVectors = 16;

template <int kVectors>
__global__ void __launch_bounds__(kResidentRowThreads)
    row_losses_resident(const float* __restrict__ logits, const float* __restrict__ targets, float* __restrict__ losses, int64_t rows,
                        int64_t classes) {
  __shared__ float shared[kMaxWarpsPerBlock];
  const int64_t vectors = classes / 4;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* xr = logits + row * classes;
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    float4 v[kVectors];
    float max = -INFINITY;
#pragma unroll
    for (int k = 0; k < kVectors; ++k) {
      const int64_t i = threadIdx.x + static_cast<int64_t>(k) * kResidentRowThreads;
      v[k] = i < vectors ? x4[i] : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
      max = fmaxf(max, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
    max = block_max(max, shared);
    const float shift = isinf(max) ? 0.f : max;
    float sum = 0.f;
#pragma unroll
    for (int k = 0; k < kVectors; ++k)
      sum += (__expf(v[k].x - shift) + __expf(v[k].y - shift)) + (__expf(v[k].z - shift) + __expf(v[k].w - shift));
    sum = block_sum(sum, shared);
    if (threadIdx.x == 0) {
      const float target = targets[row];
      const bool in_range = target >= 0.f && target < static_cast<float>(classes);  // PyTorch raises: NaN here
      losses[row] = in_range ? (shift + logf(sum)) - xr[static_cast<int64_t>(target)] : NAN;
    }
  }
}

// The resident kernel for `classes`, or null when it does not apply (classes not a multiple of 4,
// unaligned logits, or a row longer than a block holds).
using RowLossKernel = void (*)(const float*, const float*, float*, int64_t, int64_t);
// Whether rows of `classes` logits fit the resident kernel (their alignment aside).
bool fits_in_registers(int64_t classes) {
  return classes % 4 == 0 && classes / 4 <= int64_t{kResidentRowThreads} * kMaxResidentVectors;
}

RowLossKernel resident_kernel_for(int64_t classes, const float* logits) {
  if (!fits_in_registers(classes) || !aligned16(logits)) return nullptr;
  const int64_t per_thread = (classes / 4 + kResidentRowThreads - 1) / kResidentRowThreads;
  if (per_thread <= 1) return row_losses_resident<1>;
  if (per_thread <= 2) return row_losses_resident<2>;
  if (per_thread <= 4) return row_losses_resident<4>;
  if (per_thread <= 8) return row_losses_resident<8>;
  return row_losses_resident<kMaxResidentVectors>;
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
      if (const RowLossKernel resident = resident_kernel_for(classes_, in[0]))
        resident<<<row_blocks(rows_), kResidentRowThreads, 0, stream>>>(in[0], in[1], losses, rows_, classes_);
      else if (classes_ % 4 == 0 && aligned16(in[0]))
        row_losses<true><<<blocks, threads, 0, stream>>>(in[0], in[1], losses, rows_, classes_);
      else
        row_losses<false><<<blocks, threads, 0, stream>>>(in[0], in[1], losses, rows_, classes_);
      cuda::check_launch("kbv cross_entropy row-loss kernel");
    }
    mean_of<<<1, kMeanThreads, 0, stream>>>(losses, out, rows_);
    cuda::check_launch("kbv cross_entropy mean kernel");
  }
  std::string describe() const override {
    const bool resident = fits_in_registers(classes_);
    return "kbv fused cross_entropy rows=" + std::to_string(rows_) + " classes=" + std::to_string(classes_) +
           (resident ? ": a block per row held in registers (its max, then the sum of exp, the target's logit; a warp per "
                       "row folding a running max and sum of exp if the logits are not 16-byte aligned)"
                     : ": a warp per row (online max and sum of exp, the target's logit)") +
           " writes the row's loss, then their mean in one block, as torch.compile fuses it";
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
