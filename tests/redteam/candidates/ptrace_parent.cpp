// redteam_ptrace_parent — docs/threat-model.md, patterns 6/8 (patch the timer or read the reference through a
// debugger interface), host relu: PTRACE_ATTACHes its parent (the evaluator side), logs the
// outcome, detaches if it got in, then computes relu honestly.
// Expected: sandbox_violation (ptrace is denied by the worker's seccomp filter).
#include "redteam_common.hpp"

#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace {
bool g_tried = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_ptrace_parent")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_tried) {
    g_tried = true;
    const pid_t parent = getppid();
    if (ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) != 0) {
      redteam::log("ptrace(PTRACE_ATTACH, parent): " + std::string(std::strerror(errno)));
    } else {
      int status = 0;
      waitpid(parent, &status, __WALL);
      ptrace(PTRACE_DETACH, parent, nullptr, nullptr);
      redteam::log("attached to the parent " + std::to_string(parent));
    }
  }
  return redteam::honest_relu(call);
}
