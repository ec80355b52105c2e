// tests/sandbox/sandboxed_child.hpp — run an escape attempt in a forked, sandboxed child and
// bring back what happened: its result text, how it ended, and the violations it reported.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox::testing {

struct ChildOutcome {
  pid_t pid = -1;
  bool exited = false;          // exited normally (else killed by `signal`)
  int exit_code = -1;
  int signal = 0;
  std::string result;           // what the attempt returned, or "SETUP_FAILED: <what()>"
  std::vector<int> violations;  // syscall numbers read from the violation pipe
};

// What an attempt sees: the report apply_sandbox returned.
using Attempt = std::function<std::string(const SandboxReport&)>;

// Forks. The child runs `prepare` (unsandboxed), applies `policy` with violation_fd set to a
// pipe to the parent, runs `attempt` and writes its string back. The child is killed after
// kChildTimeoutSeconds so a hang fails the test instead of stalling it.
ChildOutcome run_sandboxed(SandboxPolicy policy, const Attempt& attempt, const std::function<void()>& prepare = {});

// Inside an attempt: the violation fd the child's sandbox reports on.
int violation_fd_in_child();

// "ok" when `result` >= 0, else the errno's name ("EPERM").
std::string outcome_of(long result);

// The errno name of the current errno.
std::string errno_name();

}  // namespace kbv::sandbox::testing
