// worker/plugin_loader.cpp — dlopen (RTLD_NOW | RTLD_LOCAL), find the one export, negotiate.
#include "worker/plugin_loader.hpp"

#include <dlfcn.h>

#include <boost/dll/shared_library_load_mode.hpp>
#include <cstdio>
#include <cstring>
#include <exception>

#include "protocol/status_names.hpp"
#include "worker/worker_device.hpp"

namespace kbv::worker {

std::string& last_plugin_error() {
  static std::string message;
  return message;
}

namespace {
// Bounds what a plugin can make the worker hold or print through the host API.
constexpr size_t kMaxPluginMessageBytes = 4096;

void record_error(void*, const char* message) {
  last_plugin_error() = message ? std::string(message, strnlen(message, kMaxPluginMessageBytes)) : std::string();
}
// ": <text>" after a failing status, or the hint that would have given one.
std::string with_reason(const std::string& text) {
  return text.empty() ? " and gave no reason (fix: call set_error() from kbv/plugin.h before returning a failing status)" : ": " + text;
}
void log_message(void*, int32_t level, const char* message) {
  if (message) std::fprintf(stderr, "candidate[%d]: %.*s\n", level, static_cast<int>(kMaxPluginMessageBytes), message);
}
}  // namespace

kbv_status run_candidate(const kbv_plugin_info& info, void* state, const kbv_call& call, bool* threw, std::string* what) {
  *threw = false;
  try {
    return info.run(state, &call);
  } catch (const std::exception& error) {
    *threw = true;
    *what = std::string("run() threw a C++ exception: ") + error.what();
  } catch (...) {
    *threw = true;
    *what = "run() threw a C++ exception of unknown type";
  }
  return KBV_STATUS_INTERNAL;
}

const kbv_host_api* worker_host_api() {
  static const kbv_host_api api{sizeof(kbv_host_api), KBV_ABI_VERSION, nullptr, &record_error, &log_message};
  return &api;
}

void LoadedPlugin::fail(LoadFailure kind, std::string message) {
  failure_ = kind;
  error_ = std::move(message);
}

LoadedPlugin::LoadedPlugin(const std::filesystem::path& path, const kbv_host_api* host_api) {
  boost::dll::fs::error_code error;
  library_.load(boost::dll::fs::path(path.string()),
                boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, error);
  if (error) {
    // Boost.DLL consumes dlerror(); a second dlopen recovers the loader's own words.
    std::string detail = error.message();
    if (void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) ::dlclose(handle);
    else if (const char* text = ::dlerror()) detail = text;
    { fail(LoadFailure::load_error, path.string() + ": cannot be loaded as a shared library: " +
                                             detail +
                                             " (fix: build it with kbv_add_candidate() against the kbv SDK)"); return; }
  }
  if (!library_.has(KBV_NEGOTIATE_SYMBOL))
    { fail(LoadFailure::load_error, path.string() + ": does not export " KBV_NEGOTIATE_SYMBOL
                                         " (fix: use KBV_CANDIDATE(...) from <kbv/plugin.hpp>, or export the function with C linkage)"); return; }
  auto& negotiate = library_.get<kbv_status(uint32_t, uint32_t, const kbv_host_api*, kbv_plugin_info*)>(KBV_NEGOTIATE_SYMBOL);
  info_.struct_size = sizeof(kbv_plugin_info);
  const kbv_status status = negotiate(KBV_ABI_VERSION_MIN, KBV_ABI_VERSION_MAX, host_api, &info_);
  if (status == KBV_STATUS_ABI_MISMATCH)
    { fail(LoadFailure::abi_error, path.string() + ": no ABI version in common with this kbv (speaks " +
                                            std::to_string(KBV_ABI_VERSION_MIN) + ".." + std::to_string(KBV_ABI_VERSION_MAX) +
                                            "): " + last_plugin_error() + " (fix: rebuild against this kbv's SDK)"); return; }
  if (status != KBV_STATUS_OK)
    { fail(LoadFailure::abi_error, path.string() + ": kbv_plugin_negotiate() returned " + protocol::status_name(status) + with_reason(last_plugin_error())); return; }
  if (info_.abi_version < KBV_ABI_VERSION_MIN || info_.abi_version > KBV_ABI_VERSION_MAX)
    { fail(LoadFailure::abi_error, path.string() + ": chose ABI version " + std::to_string(info_.abi_version) +
                                            " outside the offered range (fix: rebuild against this kbv's SDK)"); return; }
  if (!info_.run || !info_.problem || !info_.problem[0])
    { fail(LoadFailure::abi_error, path.string() + ": plugin info lacks run() or problem (fix: fill both in kbv_plugin_negotiate)"); return; }
  if (info_.device != KBV_DEVICE_HOST && info_.device != KBV_DEVICE_CUDA)
    { fail(LoadFailure::abi_error, path.string() + ": unknown device " + std::to_string(info_.device)); return; }
  if (info_.create) {
    bool threw = false;
    std::string thrown;
    kbv_status created = KBV_STATUS_INTERNAL;
    last_plugin_error().clear();  // what negotiate() said is not create()'s reason
    try {
      created = info_.create(host_api, &state_);
    } catch (const std::exception& exception) {
      threw = true;
      thrown = exception.what();
    } catch (...) {
      threw = true;
    }
    if (threw)
      { fail(LoadFailure::load_error, path.string() + ": create() threw a C++ exception" + (thrown.empty() ? std::string(" of unknown type") : ": " + thrown)); return; }
    if (created != KBV_STATUS_OK)
      { fail(LoadFailure::load_error, path.string() + ": create() returned " + protocol::status_name(created) + with_reason(last_plugin_error())); return; }
    created_ = true;
  }
}

LoadedPlugin::~LoadedPlugin() {
  if (created_ && info_.destroy) info_.destroy(state_);
}

}  // namespace kbv::worker
