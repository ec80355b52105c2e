// redteam_common.hpp — what the host red-team candidates share: an honest relu (so that the
// only thing wrong with a candidate is the behaviour it is written to show) and a log line
// through the host API, so each attack's outcome shows up in the worker's diagnostics.
#pragma once

#include <kbv/plugin.hpp>

#include <cstdint>
#include <string>

namespace redteam {

inline void relu(const float* x, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] < 0.0f ? 0.0f : x[i];
}

inline kbv_status honest_relu(kbv::Call& call) {
  relu(call.input(0).data<float>(), call.output(0).data<float>(), call.output(0).numel());
  return KBV_STATUS_OK;
}

// Level 2 = warning in kbv_host_api::log's scale (0 debug … 3 error).
inline void log(const std::string& message) {
  constexpr int32_t kWarning = 2;
  const kbv_host_api* api = kbv::detail::host_api();
  if (api != nullptr && api->log != nullptr) api->log(api->host_context, kWarning, message.c_str());
}

}  // namespace redteam
