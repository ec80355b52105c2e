// cuda gelu (vec4) — exact GELU, y = 0.5·x·(1 + erf(x/√2)), with 16-byte vector loads and
// stores, grid-stride, on the call's stream.
#include "elementwise.cuh"

namespace {
constexpr float kInvSqrt2 = 0.70710678118654752440f;
struct Gelu {
  __device__ float operator()(float v) const { return 0.5f * v * (1.0f + erff(v * kInvSqrt2)); }
};
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "gelu_vec4")

kbv_status kbv_candidate_run(kbv::Call& call) { return cuda_candidate::run_elementwise(call, Gelu{}, "gelu_vec4"); }
