// protocol/status_names.hpp — a plugin's kbv_status in words, for verdict details and load
// errors: its enumerator's name and what kbv/plugin.h says it means.
#pragma once

#include <kbv/plugin.h>

#include <string>

namespace kbv::protocol {

// "KBV_STATUS_UNSUPPORTED"; "status 42 (not a kbv_status)" for a value outside the enum.
inline std::string status_name(int status) {
  switch (status) {
    case KBV_STATUS_OK: return "KBV_STATUS_OK";
    case KBV_STATUS_INVALID_ARGUMENT: return "KBV_STATUS_INVALID_ARGUMENT";
    case KBV_STATUS_UNSUPPORTED: return "KBV_STATUS_UNSUPPORTED";
    case KBV_STATUS_DEVICE_ERROR: return "KBV_STATUS_DEVICE_ERROR";
    case KBV_STATUS_INTERNAL: return "KBV_STATUS_INTERNAL";
    case KBV_STATUS_ABI_MISMATCH: return "KBV_STATUS_ABI_MISMATCH";
    default: return "status " + std::to_string(status) + " (not a kbv_status)";
  }
}

// kbv/plugin.h's gloss of each status ("" for OK and unknown values).
inline const char* status_meaning(int status) {
  switch (status) {
    case KBV_STATUS_INVALID_ARGUMENT: return "shapes, dtypes or counts it cannot handle";
    case KBV_STATUS_UNSUPPORTED: return "a valid request it does not implement";
    case KBV_STATUS_DEVICE_ERROR: return "a CUDA call failed";
    case KBV_STATUS_INTERNAL: return "a failure inside the plugin";
    case KBV_STATUS_ABI_MISMATCH: return "no ABI version in common";
    default: return "";
  }
}

}  // namespace kbv::protocol
