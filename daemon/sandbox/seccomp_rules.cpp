// sandbox/seccomp_rules.cpp — the denial table (docs/sandbox.md, What CUDA tolerates lists what CUDA tolerates:
// AF_UNIX sockets must stay; ptrace, mount, unshare, setns, bpf, perf_event_open, keyctl,
// kexec and module loading may go).
//
// Argument tests follow the kernel's types: an `int`/`unsigned int` argument is compared on
// its low 32 bits (MASKED_EQ with 0xffffffff) when a match means "deny", because the kernel
// ignores the upper half a caller may fill with garbage; a "deny unless equal" test compares
// all 64 bits, so garbage can only make it deny.
#include "sandbox/seccomp_rules.hpp"

#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>

namespace kbv::sandbox {
namespace {

constexpr std::uint64_t kLow32 = 0xffffffffull;

scmp_arg_cmp arg_not(unsigned arg, std::uint64_t value) { return {arg, SCMP_CMP_NE, value, 0}; }
scmp_arg_cmp arg_is32(unsigned arg, std::uint64_t value) { return {arg, SCMP_CMP_MASKED_EQ, kLow32, value & kLow32}; }
scmp_arg_cmp arg_bits(unsigned arg, std::uint64_t mask, std::uint64_t value) { return {arg, SCMP_CMP_MASKED_EQ, mask, value}; }

}  // namespace

std::vector<SeccompRule> worker_seccomp_rules(pid_t self, int violation_fd) {
  const auto pid = static_cast<std::uint64_t>(self);
  std::vector<SeccompRule> rules = {
      // --- escape attempts: trapped and reported -------------------------------------------
      {"socket", Denial::trap, {arg_not(0, AF_UNIX)}, "network or netlink/packet socket (AF_UNIX stays: CUDA needs it)"},
      {"socketpair", Denial::trap, {arg_not(0, AF_UNIX)}, "non-unix socket pair"},
      {"ptrace", Denial::trap, {}, "tracing another process (or being traced)"},
      {"process_vm_readv", Denial::trap, {}, "reading another process's memory"},
      {"process_vm_writev", Denial::trap, {}, "writing another process's memory"},
      {"pidfd_getfd", Denial::trap, {}, "stealing a file descriptor from another process"},
      {"fork", Denial::trap, {}, "a new process"},
      {"vfork", Denial::trap, {}, "a new process"},
      {"clone", Denial::trap, {arg_bits(0, CLONE_THREAD, 0)}, "a new process (clone without CLONE_THREAD; threads stay)"},
      {"kill", Denial::trap, {arg_not(0, pid), arg_not(1, 0)}, "a signal to another process (kill(pid, 0) probes stay: cudart uses kill)"},
      {"tgkill", Denial::trap, {arg_not(0, pid), arg_not(2, 0)}, "a signal to another process's thread"},
      {"tkill", Denial::trap, {arg_not(1, 0)}, "a signal to an arbitrary thread id"},
      {"rt_sigqueueinfo", Denial::trap, {arg_not(0, pid)}, "a queued signal to another process"},
      {"rt_tgsigqueueinfo", Denial::trap, {arg_not(0, pid)}, "a queued signal to another process's thread"},
      {"pidfd_send_signal", Denial::trap, {arg_not(1, 0)}, "a signal through a pidfd"},
      // SIGIO/SIGURG owners: the kernel would signal them, a path the kill rules never see.
      {"fcntl", Denial::eperm, {arg_is32(1, F_SETOWN), arg_not(2, pid)}, "I/O signals to another process"},
      {"fcntl", Denial::eperm, {arg_is32(1, F_SETOWN_EX)}, "I/O signals to another process (owner in memory)"},
      {"ioctl", Denial::eperm, {arg_is32(1, FIOSETOWN)}, "I/O signals to another process"},
      // Signals the kernel sends the worker by itself, with no thread of it running: a SIGCONT
      // from them would resume the worker kbv stops from each answer to its next message
      // (eval/worker_process.hpp), to work while its outputs are read or its next inputs written.
      {"timer_create", Denial::eperm, {}, "a POSIX timer's signal (SIGCONT resumes a stopped worker: red-team self_resume)"},
      {"fcntl", Denial::eperm, {arg_is32(1, F_SETSIG)}, "choosing the I/O signal (SIGCONT, sent when kbv reads the worker's answer)"},
      {"ioctl", Denial::eperm, {arg_is32(1, SIOCSPGRP)}, "I/O signals to another process"},
      // --- namespaces, mounts, filesystem root ----------------------------------------------
      {"clone3", Denial::enosys, {}, "flags live in memory seccomp cannot read; glibc falls back to clone"},
      {"unshare", Denial::eperm, {}, "new namespaces (the worker holds every capability in its user namespace)"},
      {"setns", Denial::eperm, {}, "joining other namespaces"},
      {"mount", Denial::eperm, {}, "changing the mount tree"},
      {"umount2", Denial::eperm, {}, "uncovering forbidden paths"},
      {"pivot_root", Denial::eperm, {}, "changing the root"},
      {"chroot", Denial::eperm, {}, "changing the root"},
      {"fsopen", Denial::eperm, {}, "new mount API"},
      {"fsconfig", Denial::eperm, {}, "new mount API"},
      {"fsmount", Denial::eperm, {}, "new mount API"},
      {"fspick", Denial::eperm, {}, "new mount API"},
      {"move_mount", Denial::eperm, {}, "new mount API"},
      {"open_tree", Denial::eperm, {}, "new mount API (detached copies of mounts)"},
      {"mount_setattr", Denial::eperm, {}, "new mount API (clearing read-only)"},
      {"open_by_handle_at", Denial::eperm, {}, "opening files by handle, around path checks"},
      // --- kernel attack surface and host state ---------------------------------------------
      {"bpf", Denial::eperm, {}, "eBPF programs"},
      {"perf_event_open", Denial::eperm, {}, "perf counters (side channels, kernel attack surface)"},
      {"keyctl", Denial::eperm, {}, "kernel keyrings"},
      {"add_key", Denial::eperm, {}, "kernel keyrings"},
      {"request_key", Denial::eperm, {}, "kernel keyrings"},
      {"kexec_load", Denial::eperm, {}, "replacing the kernel"},
      {"kexec_file_load", Denial::eperm, {}, "replacing the kernel"},
      {"init_module", Denial::eperm, {}, "kernel modules"},
      {"finit_module", Denial::eperm, {}, "kernel modules"},
      {"delete_module", Denial::eperm, {}, "kernel modules"},
      {"reboot", Denial::eperm, {}, "host power state"},
      {"swapon", Denial::eperm, {}, "host swap"},
      {"swapoff", Denial::eperm, {}, "host swap"},
      {"settimeofday", Denial::eperm, {}, "the host clock (timing is measured with it)"},
      {"clock_settime", Denial::eperm, {}, "the host clock"},
      {"clock_adjtime", Denial::eperm, {}, "the host clock"},
      {"adjtimex", Denial::eperm, {}, "the host clock"},
      {"io_uring_setup", Denial::eperm, {}, "io_uring runs syscalls seccomp never sees"},
      {"io_uring_enter", Denial::eperm, {}, "io_uring (an inherited ring)"},
      {"io_uring_register", Denial::eperm, {}, "io_uring (an inherited ring)"},
      {"userfaultfd", Denial::eperm, {}, "stalling the kernel inside copy_from_user (exploit primitive)"},
      {"process_madvise", Denial::eperm, {}, "advising on another process's memory"},
      {"iopl", Denial::eperm, {}, "raw I/O ports"},
      {"ioperm", Denial::eperm, {}, "raw I/O ports"},
      {"syslog", Denial::eperm, {}, "the kernel log"},
      {"acct", Denial::eperm, {}, "process accounting"},
      {"quotactl", Denial::eperm, {}, "disk quotas"},
      {"fanotify_init", Denial::eperm, {}, "watching other processes' file access"},
      {"execve", Denial::eperm, {}, "running another program (nothing in the worker needs to after the sandbox)"},
      {"execveat", Denial::eperm, {}, "running another program"},
      {"truncate", Denial::eperm, {}, "truncating by path (Landlock < 3 does not control it; ftruncate on fds stays)"},
      {"ioctl", Denial::eperm, {arg_is32(1, TIOCSTI)}, "typing into the controlling terminal"},
      {"ioctl", Denial::eperm, {arg_is32(1, TIOCLINUX)}, "console control"},
      // --- keeping this sandbox intact ------------------------------------------------------
      {"prctl", Denial::eperm, {arg_is32(0, PR_SET_DUMPABLE), arg_not(1, 0)}, "becoming dumpable (ptrace, /proc/pid/mem) again"},
      {"prctl", Denial::eperm, {arg_is32(0, PR_SET_PTRACER)}, "inviting a tracer"},
      {"rt_sigaction", Denial::eperm, {arg_is32(0, SIGSYS), arg_not(1, 0)}, "replacing the violation reporter"},
      // kbv continues the stopped worker with SIGCONT before each message: a handler would run
      // the candidate's code before the worker reads the call and starts its clock (red-team).
      {"rt_sigaction", Denial::eperm, {arg_is32(0, SIGCONT), arg_not(1, 0)}, "running code when kbv resumes the stopped worker"},
      {"close_range", Denial::eperm, {}, "closing the violation fd among others (nothing needs it without fork)"},
  };
  for (const unsigned long flag : {CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWPID, CLONE_NEWCGROUP})
    rules.push_back({"clone", Denial::eperm, {arg_bits(0, flag, flag)}, "a thread in new namespaces"});
  // personality: only the query (0xffffffff) and PER_LINUX (0, the default). Any other 32-bit
  // value has a set bit followed (cyclically) by a clear one; one rule per adjacent pair.
  for (unsigned bit = 0; bit < 32; ++bit) {
    const std::uint64_t set = 1ull << bit;
    const std::uint64_t next = 1ull << ((bit + 1) % 32);
    rules.push_back({"personality", Denial::eperm, {arg_bits(0, set | next, set)}, "execution domains other than the default"});
  }
  if (violation_fd >= 0) {
    const auto fd = static_cast<std::uint64_t>(violation_fd);
    rules.push_back({"close", Denial::eperm, {arg_is32(0, fd)}, "closing the violation fd"});
    rules.push_back({"dup2", Denial::eperm, {arg_is32(1, fd)}, "replacing the violation fd"});
    rules.push_back({"dup3", Denial::eperm, {arg_is32(1, fd)}, "replacing the violation fd"});
  }
  return rules;
}

}  // namespace kbv::sandbox
