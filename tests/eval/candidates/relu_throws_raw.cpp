// hostile_relu_throws_raw — a raw C ABI candidate written in C++ whose run() lets a C++
// exception escape across the C boundary (the SDK's helper would have caught it; this author
// did not use the helper).
// Expected verdict: fail_correctness (the worker catches it: no crash); the detail says run()
// threw a C++ exception and quotes its what().
#include <kbv/plugin.h>

#include <stdexcept>

namespace {
kbv_status throwing_run(void*, const kbv_call*) { throw std::runtime_error("relu_throws_raw: the tensor shapes surprised me"); }
}  // namespace

extern "C" KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(uint32_t host_min, uint32_t host_max, const kbv_host_api*,
                                                             kbv_plugin_info* info) {
  if (host_min > KBV_ABI_VERSION || host_max < KBV_ABI_VERSION || info == nullptr || info->struct_size < sizeof(kbv_plugin_info))
    return KBV_STATUS_ABI_MISMATCH;
  info->abi_version = KBV_ABI_VERSION;
  info->problem = KBV_PROBLEM;
  info->candidate_name = "relu_throws_raw";
  info->device = KBV_DEVICE_HOST;
  info->create = nullptr;
  info->run = &throwing_run;
  info->destroy = nullptr;
  return KBV_STATUS_OK;
}
