// eval/thread_schedstat.hpp — how long threads ran and waited on a run queue, from the kernel's
// per-thread scheduler statistics (/proc/<pid>/task/<tid>/schedstat, /proc/thread-self/schedstat:
// "<ns on a CPU> <ns runnable but waiting on a run queue (run_delay)> <time slices>"). The kernel
// writes these files; a candidate in the worker cannot forge what the evaluator reads of them.
// Linux only; every reader answers empty where the file is missing or unreadable.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace kbv::eval {

// One thread's two clocks, kept by the kernel in nanoseconds: time on a CPU (what its work cost,
// which no wait lengthens) and time runnable but waiting for one.
struct ThreadSchedstat {
  std::uint64_t on_cpu_ns = 0;
  std::uint64_t run_delay_ns = 0;
};

// The first two fields of a schedstat file's text; empty when the text does not hold three
// unsigned numbers.
std::optional<ThreadSchedstat> parse_schedstat(std::string_view schedstat_text);

// The schedstat file at `path`.
std::optional<ThreadSchedstat> read_schedstat(const std::string& path);

// The calling thread's run_delay (/proc/thread-self/schedstat).
std::optional<std::uint64_t> own_thread_run_delay_ns();

// Thread id → schedstat for every thread of process `pid` (/proc/<pid>/task/*/schedstat);
// empty when the process's task folder cannot be read. Threads that end while it is read are
// left out.
using ProcessSchedstats = std::map<pid_t, ThreadSchedstat>;
ProcessSchedstats process_thread_schedstats(pid_t pid);

// Beside the waits: the CPU time of process `pid`, every thread's summed, threads that have ended
// included (its process CPU clock, clock_getcpuclockid(3); kept by the kernel, nanoseconds);
// empty where the clock cannot be read.
std::optional<std::uint64_t> process_cpu_time_ns(pid_t pid);

// The CPUs online (sysconf), at least 1: as many as a process's threads can run on at once.
unsigned online_cpu_count();

}  // namespace kbv::eval
