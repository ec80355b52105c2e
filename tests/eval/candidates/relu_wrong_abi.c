/* hostile_relu_wrong_abi — raw C ABI plugin that speaks only ABI version 99, so negotiation
 * with any host offering [1, 1] fails with KBV_STATUS_ABI_MISMATCH.
 * Expected verdict: abi_error. */
#include <kbv/plugin.h>

#define ONLY_ABI_VERSION 99u

static kbv_status relu_run(void* state, const kbv_call* call) {
  (void)state;
  const float* x = (const float*)call->inputs[0].data;
  float* y = (float*)call->outputs[0].data;
  int64_t count = 1;
  for (uint32_t axis = 0; axis < call->outputs[0].rank; ++axis) count *= call->outputs[0].shape[axis];
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return KBV_STATUS_OK;
}

KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(uint32_t host_abi_min, uint32_t host_abi_max,
                                                  const kbv_host_api* host, kbv_plugin_info* info) {
  if (host_abi_min > ONLY_ABI_VERSION || host_abi_max < ONLY_ABI_VERSION) {
    if (host && host->set_error) host->set_error(host->host_context, "candidate speaks ABI 99 only");
    return KBV_STATUS_ABI_MISMATCH;
  }
  info->abi_version = ONLY_ABI_VERSION;
  info->problem = "relu";
  info->candidate_name = "relu_wrong_abi";
  info->device = KBV_DEVICE_HOST;
  info->create = 0;
  info->run = relu_run;
  info->destroy = 0;
  return KBV_STATUS_OK;
}
