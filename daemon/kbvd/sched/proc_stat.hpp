// Reads a process's start time from /proc, so a recorded pid is not mistaken for a reused one.
#pragma once

#include <cstdint>
#include <optional>
#include <sys/types.h>

namespace kbv::kbvd {

// Field 22 of /proc/PID/stat (clock ticks since boot), or nothing if PID does not exist.
std::optional<std::int64_t> process_start_ticks(pid_t pid);

// Kills the process group PGID unless its id now belongs to another process (start time differs).
bool kill_leftover_group(std::int64_t pgid, std::int64_t start_ticks);

}  // namespace kbv::kbvd
