// cuda relu (vec4) — y = max(x, 0) with 16-byte vector loads and stores, grid-stride, on the
// call's stream. NaN passes through as in torch.relu.
#include "elementwise.cuh"

namespace {
struct Relu {
  __device__ float operator()(float v) const { return v < 0.0f ? 0.0f : v; }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "relu_vec4")

kbv_status kbv_candidate_run(kbv::Call& call) { return cuda_candidate::run_elementwise(call, Relu{}, "relu_vec4"); }
