// daemon/ops/common/baseline/sum_terms_f32.cu — the losses' fp32 baseline, second half: one block
// adds the per-block partial sums in a fixed order and divides.
#include "common/cuda_error.hpp"
#include "ops/common/baseline/device_math.cuh"
#include "ops/common/baseline/sum_terms_f32.hpp"

namespace kbv::ops::baseline {
namespace {

__global__ void finish_sum_kernel(const float* partials, unsigned blocks, float divisor, float* out) {
  __shared__ float shared[device::kMaxWarpsPerBlock];
  float sum = 0.f;
  for (unsigned i = threadIdx.x; i < blocks; i += blockDim.x) sum += partials[i];
  sum = device::block_sum(sum, shared);
  if (threadIdx.x == 0) *out = sum / divisor;
}

}  // namespace

void finish_sum_f32(const float* partials, unsigned blocks, float divisor, float* out,
                    cudaStream_t stream) {
  finish_sum_kernel<<<1, kSumThreads, 0, stream>>>(partials, blocks, divisor, out);
  cuda::check_launch("kbv finish sum kernel (loss)");
}

}  // namespace kbv::ops::baseline
