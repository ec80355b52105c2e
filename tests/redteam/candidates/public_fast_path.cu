// redteam_public_fast_path — docs/threat-model.md, pattern 1 on the timing side: correct everywhere, but fast
// only on the public distribution. A gelu (relu would not do: uniform01 inputs make relu the
// identity, so that family is degenerate for relu and never timed). It reads its first 4096
// inputs back (synchronising) and, when they look like uniform01 (all in [0, 1), spanning below
// 0.01 and above 0.99: no other family does), runs gelu once; on every other family three times
// (the same output, three times the work): the stand-in for a kernel tuned, or special-cased,
// for the inputs everyone can see. Output checks cannot see this; the per-family timing can.
// Expected: pass, flag faster_on_public_family (its speedup over TF32 on uniform01 is ~3× its
// median speedup on the hidden families; environment.public_vs_hidden_speedup).
#include "redteam_common.cuh"

#include <algorithm>
#include <vector>

namespace {

constexpr int64_t kSampled = 4096;
constexpr int kHiddenRepeats = 3;

// PyTorch's exact gelu (approximate='none').
__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t count) {
  constexpr float kInvSqrt2 = 0.70710678118654752f;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    y[i] = 0.5f * x[i] * (1.f + erff(x[i] * kInvSqrt2));
}

bool looks_like_uniform01(const std::vector<float>& head) {
  const auto [low, high] = std::minmax_element(head.begin(), head.end());
  return *low >= 0.0f && *high < 1.0f && *low < 0.01f && *high > 0.99f;
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_public_fast_path")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  float* y = call.output(0).data<float>();
  const int64_t count = call.output(0).numel();
  const cudaStream_t stream = redteam::stream_of(call);
  std::vector<float> head(static_cast<size_t>(kSampled));
  if (kbv_status s = redteam::read_input_head(x, count, stream, &head); s != KBV_STATUS_OK) return s;
  const int repeats = looks_like_uniform01(head) ? 1 : kHiddenRepeats;
  for (int r = 0; r < repeats; ++r) {
    gelu_kernel<<<redteam::blocks_for(count), redteam::kThreads, 0, stream>>>(x, y, count);
    if (kbv_status s = redteam::status_of(cudaGetLastError(), "gelu_kernel"); s != KBV_STATUS_OK) return s;
  }
  return KBV_STATUS_OK;
}
