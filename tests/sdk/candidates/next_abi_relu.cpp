// tests/sdk/candidates/next_abi_relu.cpp — an honest relu compiled against a copy of kbv/plugin.h that describes a
// future ABI 3 (kbv_plugin_info grows a field; the header speaks 1..3, see next_abi_header.cmake).
// An older host must still load it: the helper checks the host's struct against ABI 1's
// layout, not against the newer, larger sizeof.
#include <kbv/plugin.hpp>

static_assert(KBV_ABI_VERSION_MAX == 3, "built against the generated ABI 3 header");
static_assert(sizeof(kbv_plugin_info) > KBV_PLUGIN_INFO_V1_SIZE, "ABI 3's kbv_plugin_info is larger than ABI 1's");

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "next_abi_relu")
kbv_status kbv_candidate_run(kbv::Call& call) {
  const float* x = call.input("x").data<float>();
  float* y = call.output("y").data<float>();
  for (int64_t i = 0; i < call.output("y").numel(); ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}
