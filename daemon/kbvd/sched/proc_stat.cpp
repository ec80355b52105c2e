// Parses /proc/PID/stat for the start time and kills leftover process groups after a crash.
#include "sched/proc_stat.hpp"

#include <csignal>
#include <fstream>
#include <sstream>
#include <string>

namespace kbv::kbvd {

std::optional<std::int64_t> process_start_ticks(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  // The command name (field 2) may hold spaces and parentheses: skip to its last ')'.
  const auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  constexpr int kStartTimeField = 22;  // proc(5); fields after the name start at 3
  for (int i = 3; i < kStartTimeField; ++i) fields >> field;
  std::int64_t ticks = 0;
  if (!(fields >> ticks)) return std::nullopt;
  return ticks;
}

bool kill_leftover_group(std::int64_t pgid, std::int64_t start_ticks) {
  if (pgid <= 1) return false;
  // A leader with another start time means the number was reused: not ours. A missing leader
  // leaves its group id reserved by the kernel while members live, so they are ours.
  const auto now = process_start_ticks(static_cast<pid_t>(pgid));
  if (now && *now != start_ticks) return false;
  return ::kill(-static_cast<pid_t>(pgid), SIGKILL) == 0;
}

}  // namespace kbv::kbvd
