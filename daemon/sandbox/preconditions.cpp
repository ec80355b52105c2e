// sandbox/preconditions.cpp — policy validation and the before/after checks of apply_sandbox.
#include "sandbox/preconditions.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "sandbox/errors.hpp"
#include "sandbox/paths.hpp"
#include "sandbox/unique_fd.hpp"

namespace kbv::sandbox {

SandboxPolicy validated_policy(const SandboxPolicy& policy) {
  SandboxPolicy checked = policy;
  if (policy.scratch_dir.empty()) throw_invalid_policy("scratch_dir is empty");
  checked.scratch_dir = resolved(policy.scratch_dir);
  std::error_code error;
  if (!std::filesystem::is_directory(checked.scratch_dir, error))
    throw_invalid_policy("scratch_dir " + policy.scratch_dir.string() + " is not an existing directory");
  if (checked.scratch_dir == "/") throw_invalid_policy("scratch_dir must not be /");
  // An empty path (an option left unset by the caller) names nothing: dropped, not resolved
  // to the working directory.
  std::erase_if(checked.read_only, [](const std::filesystem::path& path) { return path.empty(); });
  std::erase_if(checked.forbidden, [](const std::filesystem::path& path) { return path.empty(); });
  for (auto& path : checked.read_only) path = resolved(path);
  for (auto& path : checked.forbidden) {
    path = resolved(path);
    if (path == "/") throw_invalid_policy("forbidden path / would hide the libraries the worker runs on");
    if (is_within(path, checked.scratch_dir) || is_within(checked.scratch_dir, path))
      throw_invalid_policy("forbidden path " + path.string() + " overlaps scratch_dir " + checked.scratch_dir.string());
    for (const auto& readable : checked.read_only)
      if (is_within(readable, path) && readable != path)
        throw_invalid_policy("read_only path " + readable.string() + " lies inside forbidden path " + path.string());
  }
  if (policy.allow_cuda_devices) {
    if (policy.max_open_files && *policy.max_open_files < kCudaMinOpenFiles)
      throw_invalid_policy("max_open_files " + std::to_string(*policy.max_open_files) + " < " +
                           std::to_string(kCudaMinOpenFiles) + ": CUDA fails below it (docs/sandbox.md, What CUDA tolerates)");
    if (policy.max_address_space_bytes && *policy.max_address_space_bytes < kCudaMinAddressSpaceBytes)
      throw_invalid_policy("max_address_space_bytes " + std::to_string(*policy.max_address_space_bytes) +
                           " < 64 GiB: CUDA fails below it (docs/sandbox.md, What CUDA tolerates); bound memory with memory_limit_bytes");
  }
  if (policy.violation_fd >= 0 && ::fcntl(policy.violation_fd, F_GETFD) < 0)
    throw_invalid_policy("violation_fd " + std::to_string(policy.violation_fd) + " is not open");
  return checked;
}

void require_single_thread() {
  std::error_code error;
  int threads = 0;
  for (auto entry = std::filesystem::directory_iterator("/proc/self/task", error);
       !error && entry != std::filesystem::directory_iterator(); entry.increment(error))
    ++threads;
  if (error) throw_error(error.value(), "list /proc/self/task");
  if (threads != 1)
    throw_error(EINVAL, "apply_sandbox needs a single-threaded process (found " + std::to_string(threads) +
                            " threads): Landlock and capabilities would not reach the others; apply it before "
                            "CUDA or any thread starts");
}

void refuse_open_forbidden_files(const std::vector<std::filesystem::path>& forbidden) {
  if (forbidden.empty()) return;
  std::error_code error;
  for (auto entry = std::filesystem::directory_iterator("/proc/self/fd", error);
       !error && entry != std::filesystem::directory_iterator(); entry.increment(error)) {
    std::error_code link_error;
    const std::filesystem::path target = std::filesystem::read_symlink(entry->path(), link_error);
    if (link_error || !target.is_absolute()) continue;  // pipes, sockets, anon inodes
    for (const auto& path : forbidden)
      if (is_within(target, path))
        throw_error(EACCES, "fd " + entry->path().filename().string() + " is open on forbidden path " + target.string() +
                                " (close it, or open it O_CLOEXEC in the parent)");
  }
}

void verify_forbidden_unreadable(const std::vector<std::filesystem::path>& forbidden, SandboxReport& report) {
  for (const auto& path : forbidden) {
    UniqueFd probe(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (probe.valid()) throw_error(EACCES, "forbidden path " + path.string() + " is still readable after every layer");
    if (errno == ENXIO)
      report.unavailable.push_back("forbidden unix socket " + path.string() +
                                   " stays connectable (no mount namespace to cover it; Landlock does not control connect)");
  }
}

}  // namespace kbv::sandbox
