// sandbox/sandbox.cpp — apply_sandbox: the layers of sandbox.hpp, in their order, each step
// saying why it sits where it does.
#include "sandbox/sandbox.hpp"

#include <sys/prctl.h>

#include <cerrno>
#include <string>

#include "sandbox/capabilities.hpp"
#include "sandbox/memory_cgroup.hpp"
#include "sandbox/devices.hpp"
#include "sandbox/errors.hpp"
#include "sandbox/landlock.hpp"
#include "sandbox/mount_layer.hpp"
#include "sandbox/namespaces.hpp"
#include "sandbox/preconditions.hpp"
#include "sandbox/rlimits.hpp"
#include "sandbox/seccomp_filter.hpp"

namespace kbv::sandbox {
namespace {

// Paths the mount layer covers: the forbidden ones, and the GPU when the worker gets none.
std::vector<std::filesystem::path> paths_to_hide(const SandboxPolicy& policy) {
  std::vector<std::filesystem::path> hide = policy.forbidden;
  if (!policy.allow_cuda_devices)
    for (const auto& device : cuda_devices()) hide.push_back(device);
  return hide;
}

DeviceAccess usable_devices(const SandboxPolicy& policy) {
  DeviceAccess access{standard_devices()};
  if (policy.allow_cuda_devices)
    for (const auto& device : cuda_devices()) access.devices.push_back(device);
  return access;
}

// Landlock when wanted and present, else the mount-namespace fallback; neither is fatal.
void confine_filesystem(const SandboxPolicy& policy, const NamespaceState& namespaces, SandboxReport& report) {
  if (policy.filesystem == FilesystemLayer::hide_only) {
    if (!namespaces.mount) throw_error(EOPNOTSUPP, "hide_only filesystem layer needs a mount namespace");
    apply_mount_layer(policy, {paths_to_hide(policy), false, false}, report);
    report.unavailable.push_back("filesystem: hide_only: forbidden paths covered; the rest of the filesystem stays as it is");
    return;
  }
  std::string why_no_landlock;
  const int abi = policy.filesystem == FilesystemLayer::mount_namespace ? 0 : landlock_abi(&why_no_landlock);  // hide_only returned above
  const bool use_landlock = abi > 0;
  if (policy.filesystem == FilesystemLayer::landlock && !use_landlock)
    throw_error(EOPNOTSUPP, "policy requires Landlock but " + why_no_landlock);
  if (!use_landlock && !namespaces.mount)
    throw_error(EOPNOTSUPP, "no filesystem confinement possible: " +
                                (why_no_landlock.empty() ? std::string("Landlock not chosen") : why_no_landlock) +
                                ", and no mount namespace (see the namespace lines of the report)");
  if (!use_landlock && policy.filesystem == FilesystemLayer::automatic)
    report.unavailable.push_back("filesystem: landlock: " + why_no_landlock + " (mount-namespace fallback used)");

  if (namespaces.mount) {
    bool proc_untouched = false;
    for (const auto& mount : policy.untouched_mounts) proc_untouched |= mount == "/proc";
    apply_mount_layer(policy, {paths_to_hide(policy), !use_landlock && !proc_untouched}, report);
  } else {
    if (!policy.forbidden.empty())
      report.unavailable.push_back("mount: no mount namespace: forbidden paths are hidden by Landlock alone (one beneath a "
                                   "read_only path would stay readable and fail the final check)");
    if (policy.max_scratch_bytes)
      report.unavailable.push_back("mount: no mount namespace: scratch is the caller's folder, bounded per file (RLIMIT_FSIZE), not in all");
    // A private tmpfs on each extra writable directory needs one too: without it the worker
    // writes the host's (CUDA: /dev/shm), which other workers, of other candidates, share.
    if (!policy.shared_extra_writable)
      for (const std::filesystem::path& path : policy.extra_writable)
        report.unavailable.push_back("mount: no mount namespace: " + path.string() + " is the host's, shared with other processes");
  }
  if (use_landlock) {
    apply_landlock(policy, abi, usable_devices(policy), report);
  } else {
    report.applied.push_back("filesystem: mount-namespace fallback: everything readable except forbidden paths; every "
                             "mount read-only except scratch; /proc reduced to this process");
  }
}

}  // namespace

SandboxReport apply_sandbox(const SandboxPolicy& requested) {
  const SandboxPolicy policy = validated_policy(requested);
  require_single_thread();
  refuse_open_forbidden_files(policy.forbidden);
  SandboxReport report;

  // 1. Nothing exec'ed later gains privileges (setuid, file capabilities); Landlock and an
  //    unprivileged seccomp filter require it.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) throw_errno("prctl(PR_SET_NO_NEW_PRIVS)");
  report.applied.push_back("no_new_privs");
  // 2. Limits before anything that allocates on the candidate's behalf.
  apply_resource_limits(policy, report);
  // 3. The cgroup move needs write access to cgroupfs: before Landlock and the user namespace.
  apply_memory_limit(policy, report);
  // 4. Namespaces (user first: it grants the capabilities the others need when unprivileged).
  const NamespaceState namespaces = enter_namespaces(policy, report);
  // 5. RLIMIT_NPROC after the user namespace, so it counts this namespace's tasks only.
  apply_process_limit(policy, namespaces.user, report);
  // 6. Not dumpable: no ptrace or /proc/pid/mem by same-uid processes, no core file. After the
  //    uid map, which a non-dumpable unprivileged process cannot write.
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) throw_errno("prctl(PR_SET_DUMPABLE, 0)");
  report.applied.push_back("not dumpable");
  // 7-8. Mounts need CAP_SYS_ADMIN in the namespace, and Landlock forbids mount changes.
  if (policy.confine_filesystem) confine_filesystem(policy, namespaces, report);
  else report.unavailable.push_back("filesystem: skipped by the operator (KBV_SANDBOX_SKIP)");
  // 9. Capabilities: nothing after this needs one.
  drop_capabilities(report);
  // 10. seccomp last: it refuses the mount, unshare and capability calls the layers above make.
  if (policy.install_seccomp) install_seccomp_filter(policy, report);
  else report.unavailable.push_back("seccomp: skipped by the operator (KBV_SANDBOX_SKIP)");

  verify_forbidden_unreadable(policy.forbidden, report);
  return report;
}

}  // namespace kbv::sandbox
