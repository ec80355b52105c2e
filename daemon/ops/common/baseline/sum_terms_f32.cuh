// ops/common/baseline/sum_terms_f32.cuh — the CUDA fp32 baseline of a mean of terms, what the
// losses share (smooth_l1_loss, kl_div, triplet_margin_loss): every thread sums its grid-stride
// share of the terms, each block its threads' sums (warp shuffles), and one block the blocks'
// (ops/common/baseline/sum_terms_f32.hpp), as PyTorch's two-stage reduce kernels, with no
// atomics, so the result is deterministic. One pass over the inputs: the loss is fused with its
// mean, where PyTorch eager writes the elementwise loss out first (a stronger baseline).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "common/cuda_error.hpp"
#include "measure/baseline/node_step.hpp"
#include "ops/common/baseline/device_math.cuh"
#include "ops/common/baseline/sum_terms_f32.hpp"

namespace kbv::ops::baseline {

// partials[block] = Σ term(i) over the block's grid-stride share of [0, count).
template <class Term>
__global__ void partial_sums_f32(Term term, int64_t count, float* partials) {
  __shared__ float shared[device::kMaxWarpsPerBlock];
  float sum = 0.f;
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
#pragma unroll 4
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    sum += term(i);
  sum = device::block_sum(sum, shared);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// *out = (Σ_{i < count} term(i)) / divisor, asynchronous on `stream`; `partials` holds `blocks`
// floats of device scratch (sum_blocks). `Term` is a device functor, `float operator()(int64_t)
// const`, copied to the kernel by value.
template <class Term>
void sum_terms_f32(const Term& term, int64_t count, float divisor, float* partials, unsigned blocks,
                   float* out, cudaStream_t stream) {
  partial_sums_f32<<<blocks, kSumThreads, 0, stream>>>(term, count, partials);
  cuda::check_launch("kbv partial sums kernel (loss)");
  finish_sum_f32(partials, blocks, divisor, out, stream);
}

// A node's step computing (Σ term(i), i < count) / divisor in one fused pass, the term made
// from the node's input pointers by `make_term` (a host callable returning the device functor);
// the partial sums live in the library context's scratch. `what` names it in describe().
template <class MakeTerm>
class SumOfTermsStep final : public cuda::measure::NodeStep {
 public:
  SumOfTermsStep(cuda::measure::LibraryContext& context, int64_t count, double divisor,
                 MakeTerm make_term, std::string what)
      : context_(context), count_(count), divisor_(static_cast<float>(divisor)),
        blocks_(sum_blocks(count, context.sm_count())), make_term_(std::move(make_term)),
        what_(std::move(what)) {
    context_.reserve_scratch(blocks_ * sizeof(float));
  }
  void run(std::span<const float* const> in, float* out, cudaStream_t stream) override {
    sum_terms_f32(make_term_(in), count_, divisor_, static_cast<float*>(context_.scratch()), blocks_,
                  out, stream);
  }
  std::string describe() const override {
    return "kbv " + what_ + " kernel (terms and their mean in one pass) over " +
           std::to_string(count_) + " elements, " + std::to_string(blocks_) + " blocks";
  }

 private:
  cuda::measure::LibraryContext& context_;
  int64_t count_;
  float divisor_;
  unsigned blocks_;
  MakeTerm make_term_;
  std::string what_;
};

template <class MakeTerm>
std::unique_ptr<cuda::measure::NodeStep> make_sum_of_terms_step(cuda::measure::LibraryContext& context,
                                                               int64_t count, double divisor,
                                                               MakeTerm make_term, std::string what) {
  return std::make_unique<SumOfTermsStep<MakeTerm>>(context, count, divisor, std::move(make_term),
                                                    std::move(what));
}

}  // namespace kbv::ops::baseline
