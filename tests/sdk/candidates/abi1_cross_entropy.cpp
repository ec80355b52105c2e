// tests/sdk/candidates/abi1_cross_entropy.cpp — a cross_entropy candidate whose helper is capped at ABI 1
// (KBV_PLUGIN_ABI_MAX=1, CMakeLists.txt). ABI 1 passes float32 tensors only, so kbv refuses it
// for a problem with int64 targets (abi_error) before the first call: kbv/plugin.h, History.
// Its body is never called.
#include <kbv/plugin.hpp>

static_assert(KBV_PLUGIN_ABI_MAX == 1, "built to speak ABI 1 only");

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "abi1_cross_entropy")
kbv_status kbv_candidate_run(kbv::Call& call) {
  call.output(0).data<float>()[0] = 0.0f;
  return KBV_STATUS_OK;
}
