// sandbox/namespaces.cpp — unshare(2) one namespace at a time, so each is reported on its own.
#include "sandbox/namespaces.hpp"

#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "sandbox/errors.hpp"
#include "sandbox/paths.hpp"

namespace kbv::sandbox {
namespace {

std::string refusal_reason(int error) {
  switch (error) {
    case EPERM:
      return " (no privilege: unprivileged user namespaces disabled, e.g. sysctl "
             "kernel.unprivileged_userns_clone=0 or user.max_user_namespaces=0, or refused by a "
             "container's seccomp profile; other namespaces need CAP_SYS_ADMIN or a user namespace)";
    case EINVAL:
      return " (kernel built without this namespace, or the process is not single-threaded)";
    case ENOSPC:
    case EUSERS:
      return " (namespace count limit reached: /proc/sys/user/max_*_namespaces)";
    default:
      return "";
  }
}

// Maps this process's uid and gid to themselves: files keep their apparent owners. A
// non-dumpable process's /proc/self files belong to root, so an unprivileged writer needs the
// process dumpable for these writes (apply_sandbox makes it non-dumpable again right after).
void write_identity_maps(uid_t uid, gid_t gid) {
  const int was_dumpable = ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
  if (was_dumpable == 0 && ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) throw_errno("prctl(PR_SET_DUMPABLE, 1) for the uid map");
  // setgroups must be denied before an unprivileged gid_map write, and stays denied: the worker
  // cannot drop a supplementary group to escape a group-deny permission.
  if (const int error = write_small_file("/proc/self/setgroups", "deny"); error != 0 && error != ENOENT)
    throw_error(error, "write /proc/self/setgroups");
  if (const int error = write_small_file("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n"))
    throw_error(error, "write /proc/self/uid_map");
  if (const int error = write_small_file("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n"))
    throw_error(error, "write /proc/self/gid_map");
  if (was_dumpable == 0 && ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) throw_errno("prctl(PR_SET_DUMPABLE, 0)");
}

// unshare(flag); true on success, else the refusal goes to the report.
bool try_unshare(int flag, const char* name, SandboxReport& report) {
  if (::unshare(flag) == 0) {
    report.applied.push_back(std::string("namespace: new ") + name);
    return true;
  }
  const int error = errno;
  report.unavailable.push_back(with_errno(std::string("namespace: new ") + name + ": unshare", error) + refusal_reason(error));
  return false;
}

}  // namespace

NamespaceState enter_namespaces(const SandboxPolicy& policy, SandboxReport& report) {
  NamespaceState state;
  if (policy.new_user_namespace) {
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    state.user = try_unshare(CLONE_NEWUSER, "user", report);
    if (state.user) {
      write_identity_maps(uid, gid);
      report.applied.back() += " (uid " + std::to_string(uid) + " and gid " + std::to_string(gid) + " mapped to themselves)";
    }
  }
  if (policy.new_network_namespace) state.network = try_unshare(CLONE_NEWNET, "network (loopback only, down)", report);
  if (policy.new_ipc_namespace) state.ipc = try_unshare(CLONE_NEWIPC, "ipc", report);
  if (policy.new_mount_namespace) {
    state.mount = try_unshare(CLONE_NEWNS, "mount", report);
    // A copy of shared mounts would propagate this sandbox's mounts back to the host.
    if (state.mount && ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
      throw_errno("make the new mount namespace private");
  }
  return state;
}

}  // namespace kbv::sandbox
