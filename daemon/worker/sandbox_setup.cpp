// worker/sandbox_setup.cpp — translate the worker's settings into a kbv::sandbox policy.
#include "worker/sandbox_setup.hpp"

#include <sys/prctl.h>

#include <cstdio>
#include <system_error>

#ifdef KBV_HAVE_SANDBOX
#include "protocol/messages.hpp"
#include "sandbox/sandbox.hpp"
#endif

namespace kbv::worker {

bool confine_worker(const SandboxSettings& settings, std::string* error) {
  // Always: no privilege gain through exec, and no ptrace or /proc/pid/mem by same-uid peers.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
    *error = "prctl(NO_NEW_PRIVS / DUMPABLE) failed";
    return false;
  }
  if (!settings.enabled) return true;
#ifdef KBV_HAVE_SANDBOX
  try {
    sandbox::SandboxPolicy policy = sandbox::worker_policy(settings.scratch_dir, settings.candidate, settings.forbidden, settings.cuda);
    policy.violation_fd = protocol::kViolationFd;
    const sandbox::SandboxReport report = sandbox::apply_sandbox(policy);
    for (const auto& line : report.unavailable) std::fprintf(stderr, "kbv-worker: sandbox layer unavailable: %s\n", line.c_str());
  } catch (const std::exception& failure) {
    *error = std::string("sandbox: ") + failure.what();
    return false;
  }
#endif
  return true;
}

}  // namespace kbv::worker
