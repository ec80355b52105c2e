// sandbox/seccomp_filter.cpp — libseccomp context from the rule table, loaded with TSYNC.
#include "sandbox/seccomp_filter.hpp"

#include <seccomp.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "sandbox/errors.hpp"
#include "sandbox/seccomp_rules.hpp"
#include "sandbox/violation_handler.hpp"

namespace kbv::sandbox {
namespace {

struct ContextDeleter {
  void operator()(void* context) const { seccomp_release(context); }
};
using SeccompContext = std::unique_ptr<void, ContextDeleter>;

// libseccomp returns -errno.
void check(int result, const std::string& what) {
  if (result < 0) throw_error(-result, "seccomp: " + what);
}

std::uint32_t action_for(Denial denial) {
  switch (denial) {
    case Denial::trap:
      return SCMP_ACT_TRAP;
    case Denial::eperm:
      return SCMP_ACT_ERRNO(EPERM);
    case Denial::enosys:
      return SCMP_ACT_ERRNO(ENOSYS);
  }
  return SCMP_ACT_ERRNO(EPERM);
}

}  // namespace

void install_seccomp_filter(const SandboxPolicy& policy, SandboxReport& report) {
  SeccompContext context(seccomp_init(SCMP_ACT_ALLOW));
  if (!context) throw_error(ENOMEM, "seccomp_init");
  // A syscall made through another ABI (int 0x80, x32 numbers) would dodge every rule by
  // number: the process dies instead.
  check(seccomp_attr_set(context.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS), "bad-arch action");
  check(seccomp_attr_set(context.get(), SCMP_FLTATR_CTL_TSYNC, 1), "thread sync");
  // Binary search over syscall numbers: CUDA's hot ioctl path passes few comparisons.
  check(seccomp_attr_set(context.get(), SCMP_FLTATR_CTL_OPTIMIZE, 2), "binary-tree optimization");

  int trapped = 0, refused = 0, absent = 0;
  for (const SeccompRule& rule : worker_seccomp_rules(::getpid(), policy.violation_fd)) {
    const int number = seccomp_syscall_resolve_name(rule.syscall);
    if (number == __NR_SCMP_ERROR) {
      ++absent;  // not a syscall on this architecture (fork, dup2 on arm64)
      continue;
    }
    check(seccomp_rule_add_array(context.get(), action_for(rule.denial), number, static_cast<unsigned>(rule.when.size()),
                                 rule.when.data()),
          std::string("rule for ") + rule.syscall + " (" + rule.why + ")");
    (rule.denial == Denial::trap ? trapped : refused) += 1;
  }

  install_violation_handler(policy.violation_fd);
  check(seccomp_load(context.get()), "load");
  report.applied.push_back("seccomp: default allow; " + std::to_string(trapped) + " escape rules trap (reported on " +
                           (policy.violation_fd >= 0 ? "fd " + std::to_string(policy.violation_fd) : std::string("no fd")) +
                           "), " + std::to_string(refused) + " rules refuse with EPERM/ENOSYS, other ABIs kill" +
                           (absent ? ", " + std::to_string(absent) + " rules not on this architecture" : ""));
}

}  // namespace kbv::sandbox
