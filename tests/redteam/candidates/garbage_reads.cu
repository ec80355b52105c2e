// redteam_garbage_reads — docs/threat-model.md, pattern 16 (garbage reads / races), CUDA sum_dim1: a split
// reduction where 8 blocks per column atomicAdd their partial sums into y — without clearing y
// first. It passes whenever the output buffer happens to be zero (a fresh cudaMalloc often is)
// and its result also depends on the order of the atomics.
// Expected: fail_correctness (kbv poisons outputs before every call); a bitwise_nondeterministic
// flag is welcome.
#include "redteam_common.cuh"

namespace {
constexpr int kSplits = 8;

__global__ void partial_sums(const float* __restrict__ x, float* y, int64_t extent, int64_t inner) {
  const int64_t o = blockIdx.z;
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= inner) return;
  const int64_t per_split = (extent + kSplits - 1) / kSplits;
  const int64_t begin = blockIdx.y * per_split, end = min(begin + per_split, extent);
  float sum = 0.0f;
  for (int64_t a = begin; a < end; ++a) sum += x[(o * extent + a) * inner + i];
  atomicAdd(&y[o * inner + i], sum);
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_garbage_reads")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0);
  const int64_t outer = x.dim(0u), extent = x.dim(1u), inner = x.dim(2u);
  const dim3 grid(static_cast<unsigned>((inner + redteam::kThreads - 1) / redteam::kThreads), kSplits,
                  static_cast<unsigned>(outer));
  partial_sums<<<grid, redteam::kThreads, 0, redteam::stream_of(call)>>>(x.data<float>(), call.output(0).data<float>(),
                                                                         extent, inner);
  return redteam::status_of(cudaGetLastError(), "partial_sums");
}
