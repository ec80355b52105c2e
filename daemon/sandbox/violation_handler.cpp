// sandbox/violation_handler.cpp — async-signal-safe SIGSYS handler (write(2) and registers only).
#include "sandbox/violation_handler.hpp"

#include <fcntl.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "sandbox/errors.hpp"

namespace kbv::sandbox {
namespace {

std::atomic<int> g_violation_fd{-1};
static_assert(std::atomic<int>::is_always_lock_free, "the SIGSYS handler reads this lock-free");

// si_code of a SIGSYS raised by SECCOMP_RET_TRAP (SYS_SECCOMP in the kernel's
// asm-generic/siginfo.h; glibc 2.36 does not export it).
constexpr int kSeccompTrapCode = 1;

// The return value a trapped syscall sees: the refusal the other denials give.
constexpr long kRefusal = -EPERM;

void set_syscall_result(void* context, long value) {
  auto* user_context = static_cast<ucontext_t*>(context);
#if defined(__x86_64__)
  user_context->uc_mcontext.gregs[REG_RAX] = value;
#elif defined(__aarch64__)
  user_context->uc_mcontext.regs[0] = static_cast<unsigned long long>(value);
#else
#error "kbv sandbox: set the syscall return register for this architecture"
#endif
}

void on_sigsys(int, siginfo_t* info, void* context) {
  if (info->si_code != kSeccompTrapCode) return;  // a SIGSYS someone sent: nothing was refused
  const int saved_errno = errno;
  const int fd = g_violation_fd.load(std::memory_order_relaxed);
  if (fd >= 0) {
    const std::int32_t number = info->si_syscall;
    ssize_t written;
    do written = ::write(fd, &number, sizeof number);
    while (written < 0 && errno == EINTR);  // EAGAIN: pipe full, record dropped
  }
  set_syscall_result(context, kRefusal);
  errno = saved_errno;
}

}  // namespace

void install_violation_handler(int fd) {
  // A full pipe (an evaluator that drains late, a candidate that loops on a refused call)
  // must drop records, never block the worker inside the handler.
  if (fd >= 0) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) throw_errno("make the violation fd non-blocking");
  }
  g_violation_fd.store(fd, std::memory_order_relaxed);
  struct sigaction action {};
  action.sa_sigaction = on_sigsys;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  if (::sigaction(SIGSYS, &action, nullptr) != 0) throw_errno("sigaction(SIGSYS)");
  sigset_t sigsys;
  sigemptyset(&sigsys);
  sigaddset(&sigsys, SIGSYS);
  if (const int error = ::pthread_sigmask(SIG_UNBLOCK, &sigsys, nullptr)) throw_error(error, "unblock SIGSYS");
}

}  // namespace kbv::sandbox
