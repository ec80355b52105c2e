// daemon/ops/common/reference/sum_terms_f64.cu — the losses' fp64 reference, second half: one
// block adds the per-block partial sums in a fixed order and divides.
#include "common/cuda_error.hpp"
#include "data/launch.cuh"
#include "ops/common/reference/sum_terms_f64.hpp"

namespace kbv::ops::reference {
namespace {

__global__ void finish_sum_kernel(const double* partials, unsigned blocks, double divisor, double* out) {
  __shared__ double scratch[32];
  double sum = 0.0;
  for (unsigned i = threadIdx.x; i < blocks; i += blockDim.x) sum += partials[i];
  sum = cuda::detail::block_reduce(sum, cuda::detail::SumOp{}, scratch);
  if (threadIdx.x == 0) *out = sum / divisor;
}

}  // namespace

void finish_sum_f64(const double* partials, unsigned blocks, double divisor, double* out,
                    cudaStream_t stream) {
  finish_sum_kernel<<<1, cuda::detail::kBlockThreads, 0, stream>>>(partials, blocks, divisor, out);
  cuda::check_launch("finish sum kernel (loss reference)");
}

}  // namespace kbv::ops::reference
