// sandbox/seccomp_rules.hpp — the worker's seccomp denials as data: syscall, condition, action,
// and why. Everything not listed is allowed (CUDA needs a wide, undocumented set).
#pragma once

#include <seccomp.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kbv::sandbox {

enum class Denial {
  trap,    // escape attempt: SIGSYS handler reports it on the violation fd, returns -EPERM
  eperm,   // refused with EPERM, not reported
  enosys,  // refused with ENOSYS (clone3: glibc then falls back to clone, which is filterable)
};

struct SeccompRule {
  const char* syscall;
  Denial denial;
  std::vector<scmp_arg_cmp> when;  // all must hold (one comparison per argument, libseccomp's rule)
  const char* why;
};

// The rules for a worker whose pid is `self` and whose violation pipe is `violation_fd` (-1: none).
std::vector<SeccompRule> worker_seccomp_rules(pid_t self, int violation_fd);

}  // namespace kbv::sandbox
