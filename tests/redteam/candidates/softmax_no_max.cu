// redteam_softmax_no_max — docs/threat-model.md #1 (numerics that hold only on the public
// inputs), CUDA softmax: one block per row sums exp(x) and writes exp(x) / sum, without
// subtracting the row's maximum first. Right wherever every exp(x) stays finite (U[0,1), normal,
// shifted inputs); a value above 88.7 overflows exp to inf and the row's outputs to NaN or 0.
// Expected: fail_correctness on the magnitude class's family (large or wide_range), under every key.
#include "redteam_common.cuh"

namespace {
constexpr int kRowThreads = 256;

__global__ void __launch_bounds__(kRowThreads) softmax_rows(const float* __restrict__ x, float* __restrict__ y, int64_t row) {
  __shared__ float partial[kRowThreads];
  const float* in = x + static_cast<int64_t>(blockIdx.x) * row;
  float* out = y + static_cast<int64_t>(blockIdx.x) * row;
  float sum = 0.0f;
  for (int64_t i = threadIdx.x; i < row; i += kRowThreads) sum += expf(in[i]);
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kRowThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  const float total = partial[0];
  for (int64_t i = threadIdx.x; i < row; i += kRowThreads) out[i] = expf(in[i]) / total;
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_softmax_no_max")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0);
  const int64_t rows = x.dim(0u), row = x.dim(1u);  // softmax over dim 1 of [batch, dim]
  softmax_rows<<<static_cast<unsigned>(rows), kRowThreads, 0, redteam::stream_of(call)>>>(x.data<float>(), call.output(0).data<float>(), row);
  return redteam::status_of(cudaGetLastError(), "softmax_rows");
}
