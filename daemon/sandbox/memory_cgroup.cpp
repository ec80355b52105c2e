// sandbox/memory_cgroup.cpp — cgroup v2 memory.max for the worker (see memory_cgroup.hpp; the groups that kill a process tree are lifetime/cgroup.hpp).
#include "sandbox/memory_cgroup.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <sstream>
#include <string>

#include "sandbox/errors.hpp"
#include "sandbox/paths.hpp"

namespace kbv::sandbox {
namespace {

constexpr const char* kWorkerCgroupPrefix = "kbv-worker-";

bool lists_word(const std::optional<std::string>& text, const std::string& word) {
  if (!text) return false;
  std::istringstream words(*text);
  std::string item;
  while (words >> item)
    if (item == word) return true;
  return false;
}

}  // namespace

std::optional<std::filesystem::path> resolve_cgroup_parent(const SandboxPolicy& policy, std::string* why_not) {
  if (!policy.cgroup_parent.empty()) return policy.cgroup_parent;
  std::filesystem::path mount;
  for (const MountEntry& entry : read_mount_table())
    if (entry.fs_type == "cgroup2") {
      mount = entry.mount_point;
      break;
    }
  if (mount.empty()) {
    *why_not = "no cgroup2 filesystem is mounted";
    return std::nullopt;
  }
  const std::optional<std::string> membership = read_small_file("/proc/self/cgroup");
  std::istringstream lines(membership.value_or(""));
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind("0::", 0) == 0) {
      const std::filesystem::path own = std::filesystem::path(line.substr(3)).relative_path();
      return own.empty() ? mount : mount / own;
    }
  *why_not = "/proc/self/cgroup has no cgroup v2 (0::) entry";
  return std::nullopt;
}

std::filesystem::path worker_cgroup_path(const SandboxPolicy& policy, pid_t worker) {
  std::string ignored;
  const std::optional<std::filesystem::path> parent = resolve_cgroup_parent(policy, &ignored);
  if (!parent) return {};
  return *parent / (kWorkerCgroupPrefix + std::to_string(worker));
}

bool remove_worker_cgroup(const SandboxPolicy& policy, pid_t worker) {
  const std::filesystem::path path = worker_cgroup_path(policy, worker);
  if (path.empty()) return true;
  return ::rmdir(path.c_str()) == 0 || errno == ENOENT;
}

void apply_memory_limit(const SandboxPolicy& policy, SandboxReport& report) {
  if (!policy.memory_limit_bytes) return;
  const std::string layer = "cgroup memory.max=" + std::to_string(*policy.memory_limit_bytes);
  std::string why_not;
  const std::optional<std::filesystem::path> parent = resolve_cgroup_parent(policy, &why_not);
  if (!parent) {
    report.unavailable.push_back(layer + ": " + why_not);
    return;
  }
  const std::optional<std::string> controllers = read_small_file(*parent / "cgroup.controllers");
  if (!lists_word(controllers, "memory")) {
    std::string listed = controllers.value_or("unreadable");
    while (!listed.empty() && std::isspace(static_cast<unsigned char>(listed.back()))) listed.pop_back();
    report.unavailable.push_back(layer + ": the memory controller is not available in " + parent->string() +
                                 " (cgroup.controllers: \"" + listed +
                                 "\"; on a hybrid v1/v2 host memory belongs to v1)");
    return;
  }
  if (!lists_word(read_small_file(*parent / "cgroup.subtree_control"), "memory")) {
    if (const int error = write_small_file(*parent / "cgroup.subtree_control", "+memory")) {
      report.unavailable.push_back(with_errno(layer + ": enable +memory in " + parent->string() + "/cgroup.subtree_control", error) +
                                   " (a cgroup holding processes cannot delegate controllers: pass an empty, "
                                   "delegated cgroup as cgroup_parent)");
      return;
    }
  }
  const std::filesystem::path child = *parent / (kWorkerCgroupPrefix + std::to_string(::getpid()));
  if (::mkdir(child.c_str(), 0755) != 0 && errno != EEXIST) {
    report.unavailable.push_back(with_errno(layer + ": mkdir " + child.string(), errno));
    return;
  }
  int error = write_small_file(child / "memory.max", std::to_string(*policy.memory_limit_bytes));
  std::string step = "memory.max";
  if (error == 0) {
    // No swap: a swapping worker would time the disk. Best effort (no swap accounting: ENOENT).
    (void)write_small_file(child / "memory.swap.max", "0");
    // The OOM killer takes the whole worker at once, never one of its threads' allocations.
    (void)write_small_file(child / "memory.oom.group", "1");
    step = "cgroup.procs";
    error = write_small_file(child / "cgroup.procs", "0");
  }
  if (error != 0) {
    ::rmdir(child.c_str());
    report.unavailable.push_back(with_errno(layer + ": write " + child.string() + "/" + step, error));
    return;
  }
  report.applied.push_back(layer + " in " + child.string() + " (the caller removes it after the worker exits)");
}

}  // namespace kbv::sandbox
