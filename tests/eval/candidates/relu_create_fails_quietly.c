/* hostile_relu_create_fails_quietly — a newcomer's mistake, not a hack: kbv_plugin_negotiate
 * leaves a note through set_error and succeeds, then create() fails without calling set_error.
 * Expected verdict: load_error whose detail says create() gave no reason (with the fix), not
 * negotiate's stale note. */
#include <kbv/plugin.h>

static kbv_status relu_run(void* state, const kbv_call* call) {
  (void)state;
  (void)call;
  return KBV_STATUS_OK;
}

static kbv_status failing_create(const kbv_host_api* host, void** state) {
  (void)host;
  *state = 0;
  return KBV_STATUS_INTERNAL;
}

KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(uint32_t host_abi_min, uint32_t host_abi_max,
                                                  const kbv_host_api* host, kbv_plugin_info* info) {
  (void)host_abi_max;
  if (host && host->set_error) host->set_error(host->host_context, "a note left by negotiate");
  info->abi_version = host_abi_min;
  info->problem = "relu";
  info->candidate_name = "relu_create_fails_quietly";
  info->device = KBV_DEVICE_HOST;
  info->create = failing_create;
  info->run = relu_run;
  info->destroy = 0;
  return KBV_STATUS_OK;
}
