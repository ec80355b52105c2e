// sandbox/namespaces.hpp — new user (with a uid/gid map), network, IPC and mount namespaces.
#pragma once

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

// Which namespaces the process now has of its own.
struct NamespaceState {
  bool user = false;
  bool network = false;
  bool ipc = false;
  bool mount = false;
};

// Unshares what the policy asks for. A namespace the kernel or the caller's privileges refuse
// is reported unavailable; a user namespace that cannot be given its id map throws.
NamespaceState enter_namespaces(const SandboxPolicy& policy, SandboxReport& report);

}  // namespace kbv::sandbox
