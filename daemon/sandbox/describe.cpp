// sandbox/describe.cpp — describe_policy: the whole policy on one log line.
#include <sstream>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {
namespace {

std::string join(const std::vector<std::filesystem::path>& paths) {
  std::string text = "[";
  for (size_t i = 0; i < paths.size(); ++i) text += (i ? " " : "") + paths[i].string();
  return text + "]";
}

std::string limit(const std::optional<std::uint64_t>& value) { return value ? std::to_string(*value) : "inherited"; }

const char* layer_name(FilesystemLayer layer) {
  switch (layer) {
    case FilesystemLayer::automatic:
      return "auto";
    case FilesystemLayer::landlock:
      return "landlock";
    case FilesystemLayer::mount_namespace:
      return "mount_namespace";
    case FilesystemLayer::hide_only:
      return "hide_only";
  }
  return "?";
}

}  // namespace

std::string describe_policy(const SandboxPolicy& policy) {
  std::ostringstream text;
  text << "sandbox: scratch=" << policy.scratch_dir.string() << " read_only=" << join(policy.read_only)
       << " forbidden=" << join(policy.forbidden) << " cuda_devices=" << (policy.allow_cuda_devices ? "yes" : "no")
       << " namespaces=";
  std::string namespaces;
  if (policy.new_user_namespace) namespaces += "user,";
  if (policy.new_network_namespace) namespaces += "net,";
  if (policy.new_ipc_namespace) namespaces += "ipc,";
  if (policy.new_mount_namespace) namespaces += "mount,";
  text << (namespaces.empty() ? "none" : namespaces.substr(0, namespaces.size() - 1)) << " nofile=" << limit(policy.max_open_files)
       << " cpu_s=" << limit(policy.max_cpu_seconds) << " fsize=" << limit(policy.max_file_size_bytes)
       << " as=" << limit(policy.max_address_space_bytes) << " nproc=" << limit(policy.max_processes)
       << " scratch_tmpfs_bytes=" << (policy.max_scratch_bytes ? std::to_string(*policy.max_scratch_bytes) : std::string("none"))
       << " memory=" << (policy.memory_limit_bytes ? std::to_string(*policy.memory_limit_bytes) : std::string("none"));
  if (policy.memory_limit_bytes && !policy.cgroup_parent.empty()) text << " cgroup_parent=" << policy.cgroup_parent.string();
  text << " filesystem=" << layer_name(policy.filesystem) << " violation_fd=" << policy.violation_fd;
  return text.str();
}

}  // namespace kbv::sandbox
