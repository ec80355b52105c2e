// worker/plugin_loader.hpp — load ONE candidate .so with Boost.DLL and negotiate its ABI.
#pragma once

#include <kbv/plugin.h>

#include <boost/dll/shared_library.hpp>
#include <filesystem>
#include <string>

namespace kbv::worker {

// Why a candidate could not be used: the verdict kinds of the taxonomy.
enum class LoadFailure { none, load_error, abi_error };

class LoadedPlugin {
 public:
  // Never throws: failure() and error() say what went wrong.
  LoadedPlugin(const std::filesystem::path& path, const kbv_host_api* host_api);
  ~LoadedPlugin();
  LoadedPlugin(const LoadedPlugin&) = delete;
  LoadedPlugin& operator=(const LoadedPlugin&) = delete;

  LoadFailure failure() const { return failure_; }
  const std::string& error() const { return error_; }
  const kbv_plugin_info& info() const { return info_; }
  void* state() const { return state_; }

 private:
  void fail(LoadFailure kind, std::string message);

  boost::dll::shared_library library_;
  kbv_plugin_info info_{};
  void* state_ = nullptr;
  bool created_ = false;
  LoadFailure failure_ = LoadFailure::none;
  std::string error_;
};

// The last message the plugin passed to kbv_host_api::set_error (copied).
std::string& last_plugin_error();
// A host API whose set_error/log record into last_plugin_error() / stderr.
const kbv_host_api* worker_host_api();

}  // namespace kbv::worker
