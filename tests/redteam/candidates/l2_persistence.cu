// redteam_l2_persistence — docs/threat-model.md, pattern 14 (L2 persistence), CUDA relu: reserves the largest
// persisting-L2 carve-out and sets an access-policy window (hit ratio 1, persisting) over its
// input on the call's stream, so the input would survive the harness's L2 flush; the relu
// itself is honest. Meaningful at --shapes small, where the input fits in L2.
// Expected: pass, with a speedup no better than cuda_relu_vec4's (kbv resets persisting L2
// lines and the carve-out before every flush); a flag for the policy window is welcome.
#include "redteam_common.cuh"

#include <algorithm>

namespace {
bool g_carved = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_l2_persistence")

kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input(0).data<float>();
  const int64_t count = call.output(0).numel();
  int device = 0, max_persisting = 0, max_window = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device);
  if (!g_carved && max_persisting > 0) {
    g_carved = true;
    redteam::log("persisting L2 carve-out: " + std::to_string(max_persisting) + " bytes, " +
                 (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(max_persisting)) ==
                          cudaSuccess
                      ? "set"
                      : "refused"));
  }
  if (max_window > 0) {
    cudaStreamAttrValue policy{};
    policy.accessPolicyWindow.base_ptr = const_cast<float*>(x);
    policy.accessPolicyWindow.num_bytes =
        std::min<size_t>(static_cast<size_t>(count) * sizeof(float), static_cast<size_t>(max_window));
    policy.accessPolicyWindow.hitRatio = 1.0f;
    policy.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    policy.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamSetAttribute(redteam::stream_of(call), cudaStreamAttributeAccessPolicyWindow, &policy);
  }
  return redteam::launch_relu(x, call.output(0).data<float>(), count, redteam::stream_of(call));
}
