// eval/thread_schedstat.hpp — how long threads waited on a run queue, from the kernel's
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

// run_delay (the second field) from the text of a schedstat file; empty when the text does not
// hold three unsigned numbers.
std::optional<std::uint64_t> parse_run_delay_ns(std::string_view schedstat_text);

// run_delay of the schedstat file at `path`.
std::optional<std::uint64_t> read_run_delay_ns(const std::string& path);

// The calling thread's run_delay (/proc/thread-self/schedstat).
std::optional<std::uint64_t> own_thread_run_delay_ns();

// Thread id → run_delay for every thread of process `pid` (/proc/<pid>/task/*/schedstat);
// empty when the process's task folder cannot be read. Threads that end while it is read are
// left out.
using ThreadRunDelays = std::map<pid_t, std::uint64_t>;
ThreadRunDelays process_thread_run_delays(pid_t pid);

// Beside the waits: the CPU time of process `pid`, every thread's summed, threads that have ended
// included (its process CPU clock, clock_getcpuclockid(3); kept by the kernel, nanoseconds);
// empty where the clock cannot be read.
std::optional<std::uint64_t> process_cpu_time_ns(pid_t pid);

}  // namespace kbv::eval
