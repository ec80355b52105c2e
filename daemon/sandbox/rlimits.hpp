// sandbox/rlimits.hpp — resource limits: open files, CPU seconds, file size, address space,
// and (separately, after the user namespace) the task count.
#pragma once

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

// RLIMIT_NOFILE, RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_AS. Throws if a limit cannot be set.
void apply_resource_limits(const SandboxPolicy& policy, SandboxReport& report);

// RLIMIT_NPROC; `own_user_namespace` says whether it now counts this worker's tasks only.
void apply_process_limit(const SandboxPolicy& policy, bool own_user_namespace, SandboxReport& report);

}  // namespace kbv::sandbox
