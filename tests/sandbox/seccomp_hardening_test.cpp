// tests/sandbox/seccomp_hardening_test.cpp — the filter cannot be dodged: the reporter cannot
// be replaced or closed, blocking SIGSYS kills, other syscall ABIs kill, and argument tests
// hold against garbage in the upper half of 32-bit arguments.
#include <fcntl.h>
#include <linux/io_uring.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sandbox_fixture.hpp"

namespace kbv::sandbox::testing {
namespace {

using SeccompHardeningTest = SandboxTest;

// Upper-half garbage the kernel ignores for an int argument.
constexpr unsigned long kUpperGarbage = 0x1ul << 32;

TEST_F(SeccompHardeningTest, ViolationReporterCannotBeRemoved) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    const int violation_fd = violation_fd_in_child();
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    std::string results = outcome_of(::sigaction(SIGSYS, &ignore, nullptr));
    struct sigaction current {};
    results += " " + outcome_of(::sigaction(SIGSYS, nullptr, &current));  // reading it stays
    results += " " + outcome_of(::close(violation_fd));
    results += " " + outcome_of(::syscall(SYS_close, kUpperGarbage | static_cast<unsigned long>(violation_fd)));
    results += " " + outcome_of(::dup2(0, violation_fd));
    results += " " + outcome_of(::dup3(0, violation_fd, 0));
    results += " " + outcome_of(::syscall(SYS_close_range, 3, ~0u, 0));
    results += " " + outcome_of(::socket(AF_INET, SOCK_STREAM, 0));  // still reported
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EPERM ok EPERM EPERM EPERM EPERM EPERM EPERM");
  EXPECT_EQ(outcome.violations, std::vector<int>{SYS_socket});
}

// Red-team: a SIGCONT handler ran the candidate's code each time kbv resumed the stopped worker,
// before the worker read the call and started its clock (a host clock 3x short of the work).
TEST_F(SeccompHardeningTest, NoHandlerRunsWhenTheWorkerIsResumed) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    struct sigaction handler {};
    handler.sa_handler = [](int) {};
    std::string results = outcome_of(::sigaction(SIGCONT, &handler, nullptr));
    struct sigaction current {};
    results += " " + outcome_of(::sigaction(SIGCONT, nullptr, &current));  // reading it stays
    results += " " + outcome_of(::syscall(SYS_rt_sigaction, kUpperGarbage | SIGCONT, &handler, nullptr, 8));
    results += " " + outcome_of(::sigaction(SIGUSR1, &handler, nullptr));  // other signals stay
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EPERM ok EPERM ok");
}

TEST_F(SeccompHardeningTest, AFullViolationPipeNeverBlocksTheWorker) {
  // More records than a default pipe holds (64 KiB / 4 bytes); the parent reads only after exit.
  constexpr int kAttempts = 20000;
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    int refused = 0;
    for (int attempt = 0; attempt < kAttempts; ++attempt)
      if (::socket(AF_INET, SOCK_STREAM, 0) < 0 && errno == EPERM) ++refused;
    return std::to_string(refused);
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_TRUE(outcome.exited) << "signal " << outcome.signal;
  EXPECT_EQ(outcome.result, std::to_string(kAttempts));
  EXPECT_GT(outcome.violations.size(), 0u);
  EXPECT_LT(outcome.violations.size(), static_cast<size_t>(kAttempts));  // the excess was dropped
}

TEST_F(SeccompHardeningTest, BlockingSigsysKillsTheWorkerInstead) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    sigset_t sigsys;
    sigemptyset(&sigsys);
    sigaddset(&sigsys, SIGSYS);
    ::sigprocmask(SIG_BLOCK, &sigsys, nullptr);
    return outcome_of(::socket(AF_INET, SOCK_STREAM, 0));
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_FALSE(outcome.exited) << outcome.result;
  EXPECT_EQ(outcome.signal, SIGSYS);
  EXPECT_EQ(outcome.result, "");
}

TEST_F(SeccompHardeningTest, Int80SyscallAbiKillsTheWorker) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
#if defined(__x86_64__)
    // i386 socket(2) is number 359: through int 0x80 no x86-64 rule would match it.
    long result;
    long number = 359, family = AF_INET, type = SOCK_STREAM, protocol = 0;
    asm volatile("int $0x80" : "=a"(result) : "a"(number), "b"(family), "c"(type), "d"(protocol) : "memory");
    return "returned " + std::to_string(result);
#else
    return std::string("not x86-64");
#endif
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  if (outcome.result == "not x86-64") GTEST_SKIP() << "int 0x80 exists on x86-64 only";
  if (outcome.signal == SIGSEGV) GTEST_SKIP() << "kernel without IA32 emulation: int 0x80 faults before seccomp";
  EXPECT_FALSE(outcome.exited) << outcome.result;
  EXPECT_EQ(outcome.signal, SIGSYS);
}

TEST_F(SeccompHardeningTest, X32SyscallNumbersKillTheWorker) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
#if defined(__x86_64__)
    constexpr long kX32SyscallBit = 0x40000000;
    return outcome_of(::syscall(kX32SyscallBit | SYS_socket, AF_INET, SOCK_STREAM, 0));
#else
    return std::string("not x86-64");
#endif
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  if (outcome.result == "not x86-64") GTEST_SKIP() << "x32 exists on x86-64 only";
  EXPECT_FALSE(outcome.exited) << outcome.result;
  EXPECT_EQ(outcome.signal, SIGSYS);
}

TEST_F(SeccompHardeningTest, OnlyTheDefaultPersonalityIsAllowed) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    std::string results = outcome_of(::personality(0xffffffff));
    results += " " + outcome_of(::personality(PER_LINUX));
    for (const unsigned long persona : {static_cast<unsigned long>(ADDR_NO_RANDOMIZE), static_cast<unsigned long>(READ_IMPLIES_EXEC),
                                        static_cast<unsigned long>(PER_LINUX32), 0x7ffffffful, 0xfffffffeul, 0x80000000ul,
                                        kUpperGarbage | ADDR_NO_RANDOMIZE})
      results += " " + outcome_of(::syscall(SYS_personality, persona));
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "ok ok EPERM EPERM EPERM EPERM EPERM EPERM EPERM");
}

TEST_F(SeccompHardeningTest, TerminalInjectionIsRefused) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    char c = 'x';
    // Refused before the fd is looked at: EPERM, not ENOTTY, even on a pipe.
    std::string results = outcome_of(::ioctl(0, TIOCSTI, &c));
    results += " " + outcome_of(::syscall(SYS_ioctl, 0, kUpperGarbage | TIOCSTI, &c));
    results += " " + outcome_of(::ioctl(0, TIOCLINUX, &c));
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EPERM EPERM EPERM");
}

TEST_F(SeccompHardeningTest, IoUringIsRefused) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    io_uring_params params{};
    return outcome_of(::syscall(SYS_io_uring_setup, 4, &params));
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EPERM");
}

// Nothing may signal the worker while no thread of it runs: kbv stops it between messages, and a
// SIGCONT from a timer or from an I/O owner's chosen signal would resume it.
TEST_F(SeccompHardeningTest, SignalsThatWouldResumeAStoppedWorkerAreRefused) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    sigevent event{};
    event.sigev_notify = SIGEV_SIGNAL;
    event.sigev_signo = SIGCONT;
    timer_t timer{};
    std::string results = outcome_of(::timer_create(CLOCK_MONOTONIC, &event, &timer));
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return std::string("pipe failed");
    results += " " + outcome_of(::fcntl(pipe_fds[0], F_SETSIG, SIGCONT));
    results += " " + outcome_of(::fcntl(pipe_fds[0], F_SETOWN, ::getpid()));  // its own pid stays allowed (default SIGIO)
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EPERM EPERM ok");
}

TEST_F(SeccompHardeningTest, KernelAttackSurfaceIsRefused) {
  const ChildOutcome outcome = run_sandboxed(base_policy(), [](const SandboxReport&) {
    std::string results;
    for (const long number : {SYS_bpf, SYS_perf_event_open, SYS_keyctl, SYS_add_key, SYS_userfaultfd, SYS_init_module,
                              SYS_kexec_load, SYS_settimeofday, SYS_adjtimex, SYS_open_by_handle_at, SYS_fsopen})
      results += outcome_of(::syscall(number, 0, 0, 0, 0, 0)) + " ";
    return results;
  });
  KBV_SKIP_IF_KERNEL_LACKS(outcome);
  EXPECT_EQ(outcome.result, "EPERM EPERM EPERM EPERM EPERM EPERM EPERM EPERM EPERM EPERM EPERM ");
}

}  // namespace
}  // namespace kbv::sandbox::testing
