// redteam_atomic_sum — not a hack: an honest sum_dim1 that clears y on the call's stream, then
// lets 8 blocks per column atomicAdd their partial sums into it. The order of the atomics
// changes from run to run, so the bits of the output do too, by rounding only (rel-L2 ~1e-7
// against a tolerance of 1e-5).
// Expected: pass; flag bitwise_nondeterministic (informational) or none, never a failure.
#include "redteam_common.cuh"

namespace {
constexpr int kSplits = 8;

__global__ void atomic_partial_sums(const float* __restrict__ x, float* y, int64_t extent, int64_t inner) {
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

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_atomic_sum")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const kbv::Tensor x = call.input(0);
  const int64_t outer = x.dim(0u), extent = x.dim(1u), inner = x.dim(2u);
  const cudaStream_t stream = redteam::stream_of(call);
  float* y = call.output(0).data<float>();
  if (kbv_status s = redteam::status_of(cudaMemsetAsync(y, 0, static_cast<size_t>(outer * inner) * sizeof(float), stream), "cudaMemsetAsync");
      s != KBV_STATUS_OK)
    return s;
  const dim3 grid(static_cast<unsigned>((inner + redteam::kThreads - 1) / redteam::kThreads), kSplits, static_cast<unsigned>(outer));
  atomic_partial_sums<<<grid, redteam::kThreads, 0, stream>>>(x.data<float>(), y, extent, inner);
  return redteam::status_of(cudaGetLastError(), "atomic_partial_sums");
}
