// eval/thread_schedstat.cpp — reading threads' CPU time and run_delay from /proc and a process's CPU clock, every file and folder handle owned.
#include "eval/thread_schedstat.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <charconv>
#include <memory>

#include "sandbox/unique_fd.hpp"

namespace kbv::eval {
namespace {

// One unsigned decimal number after optional blanks; advances `text` past it.
std::optional<std::uint64_t> next_number(std::string_view& text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return value;
}

struct DirCloser {
  void operator()(DIR* directory) const { ::closedir(directory); }
};

}  // namespace

std::optional<ThreadSchedstat> parse_schedstat(std::string_view schedstat_text) {
  const auto on_cpu = next_number(schedstat_text);
  const auto run_delay = next_number(schedstat_text);
  const auto slices = next_number(schedstat_text);
  if (!on_cpu || !run_delay || !slices) return std::nullopt;
  while (!schedstat_text.empty() && (schedstat_text.front() == ' ' || schedstat_text.front() == '\n')) schedstat_text.remove_prefix(1);
  if (!schedstat_text.empty()) return std::nullopt;
  return ThreadSchedstat{.on_cpu_ns = *on_cpu, .run_delay_ns = *run_delay};
}

std::optional<ThreadSchedstat> read_schedstat(const std::string& path) {
  const sandbox::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return std::nullopt;
  char buffer[128];  // three 64-bit numbers: at most 62 characters
  const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
  if (got <= 0 || got == static_cast<ssize_t>(sizeof buffer)) return std::nullopt;
  return parse_schedstat(std::string_view(buffer, static_cast<size_t>(got)));
}

std::optional<std::uint64_t> own_thread_run_delay_ns() {
  const auto own = read_schedstat("/proc/thread-self/schedstat");
  return own ? std::optional(own->run_delay_ns) : std::nullopt;
}

ProcessSchedstats process_thread_schedstats(pid_t pid) {
  ProcessSchedstats threads;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  const std::unique_ptr<DIR, DirCloser> directory(::opendir(tasks.c_str()));
  if (!directory) return threads;
  while (const dirent* entry = ::readdir(directory.get())) {
    pid_t tid = 0;
    const std::string_view name = entry->d_name;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), tid);
    if (error != std::errc() || end != name.data() + name.size()) continue;  // "." and ".."
    if (const auto stat = read_schedstat(tasks + "/" + std::string(name) + "/schedstat")) threads[tid] = *stat;
  }
  return threads;
}

std::optional<std::uint64_t> process_cpu_time_ns(pid_t pid) {
  clockid_t clock = 0;
  if (pid <= 0 || ::clock_getcpuclockid(pid, &clock) != 0) return std::nullopt;
  timespec now{};
  if (::clock_gettime(clock, &now) != 0) return std::nullopt;
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(now.tv_nsec);
}

unsigned online_cpu_count() {
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<unsigned>(online) : 1u;
}

}  // namespace kbv::eval
