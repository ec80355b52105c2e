// ops/common/reference/sum_terms_f64.cuh — the fp64 device reference of a mean of terms, what the
// losses share (smooth_l1_loss, kl_div, triplet_margin_loss): a grid-stride pass in which every
// block sums its terms, then one block adds the blocks' sums (ops/common/reference/
// sum_terms_f64.hpp). Both orders are fixed, so the result is deterministic.
#pragma once

#include <cstdint>

#include "common/cuda_error.hpp"
#include "common/device_buffer.hpp"
#include "data/launch.cuh"
#include "ops/common/reference/sum_terms_f64.hpp"

namespace kbv::ops::reference {

// partials[block] = Σ term(i) over the block's grid-stride share of [0, count).
template <class Term>
__global__ void partial_sums_f64(Term term, int64_t count, double* partials) {
  __shared__ double scratch[32];
  double sum = 0.0;
  for (int64_t i = cuda::detail::global_thread_index(); i < count; i += cuda::detail::grid_stride())
    sum += term(i);
  sum = cuda::detail::block_reduce(sum, cuda::detail::SumOp{}, scratch);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// *out = (Σ_{i < count} term(i)) / divisor, asynchronous on `stream`. `Term` is a device
// functor, `double operator()(int64_t) const`, copied to the kernel by value.
template <class Term>
void sum_terms_f64(const Term& term, int64_t count, double divisor, double* out, cudaStream_t stream) {
  const unsigned blocks = cuda::detail::grid_for(count);
  auto partials = cuda::DeviceBuffer<double>::on_stream(blocks, stream);
  partial_sums_f64<<<blocks, cuda::detail::kBlockThreads, 0, stream>>>(term, count, partials.get());
  cuda::check_launch("partial sums kernel (loss reference)");
  finish_sum_f64(partials.get(), blocks, divisor, out, stream);
}

}  // namespace kbv::ops::reference
