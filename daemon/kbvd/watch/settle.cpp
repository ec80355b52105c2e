// daemon/kbvd/watch/settle.cpp — stamps, writer checks and the set of settling files (see
// settle.hpp).
#include "watch/settle.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <fmt/format.h>

namespace kbv::kbvd {
namespace {
namespace fs = std::filesystem;

std::int64_t ns(const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec; }

std::string one_manifest(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "-";
  return fmt::format("{}:{}:{}:{}", st.st_ino, st.st_size, ns(st.st_mtim), ns(st.st_ctim));
}
}  // namespace

std::string manifest_stamp(const fs::path& candidate) {
  const std::string yaml = one_manifest(candidate.string() + ".yaml");
  const std::string json = one_manifest(candidate.string() + ".json");
  return yaml == "-" && json == "-" ? std::string() : "yaml=" + yaml + " json=" + json;
}

std::optional<FileStamp> stamp_of(const fs::path& dir, const std::string& name) {
  struct stat st {};
  if (::lstat((dir / name).c_str(), &st) != 0) return std::nullopt;
  return FileStamp{static_cast<std::int64_t>(st.st_dev), static_cast<std::int64_t>(st.st_ino),
                   static_cast<std::int64_t>(st.st_size), ns(st.st_mtim), ns(st.st_ctim), manifest_stamp(dir / name)};
}

Writers open_writers(int fd, bool hold) {
  // A writer opening the file while the lease is held makes the kernel signal the holder:
  // SIGURG, whose default is to be ignored, rather than SIGIO, whose default is to kill.
  ::fcntl(fd, F_SETSIG, SIGURG);
  if (::fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
    if (!hold) ::fcntl(fd, F_SETLEASE, F_UNLCK);
    return Writers::none;
  }
  return errno == EAGAIN ? Writers::some : Writers::unknown;
}

Writers open_writers(const fs::path& file) {
  // Not a regular file (a symbolic link, a FIFO): nothing to wait for, ingest refuses it.
  struct stat st {};
  if (::lstat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return Writers::none;
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Writers::unknown;
  const Writers answer = open_writers(fd, false);
  ::close(fd);
  return answer;
}

void Settling::seen(const std::string& name, const FileStamp& stamp, bool closed, Clock::time_point now) {
  auto it = files_.find(name);
  if (it == files_.end() || it->second.stamp != stamp) {
    files_[name] = {stamp, now, closed};
    return;
  }
  it->second.closed = it->second.closed || closed;
}

std::vector<std::string> Settling::ready(Clock::time_point now,
                                         const std::function<std::optional<FileStamp>(const std::string&)>& restamp,
                                         const std::function<Writers(const std::string&)>& writers) {
  std::vector<std::string> out;
  for (auto it = files_.begin(); it != files_.end();) {
    Entry& e = it->second;
    if (now - e.stable_since < settle_) {
      ++it;
      continue;
    }
    const auto stamp = restamp(it->first);
    if (!stamp) {  // gone
      it = files_.erase(it);
      continue;
    }
    if (*stamp != e.stamp) {  // written since: start over, and a new close is needed
      e = {*stamp, now, false};
      ++it;
      continue;
    }
    const Writers w = writers(it->first);
    const bool done = w == Writers::none ||
                      (w == Writers::unknown && (e.closed || now - e.stable_since >= kQuietWithoutClose));
    if (done) {
      out.push_back(it->first);
      it = files_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

std::optional<Settling::Clock::time_point> Settling::next_check(Clock::time_point now) const {
  std::optional<Clock::time_point> next;
  for (const auto& [name, e] : files_) {
    // Not yet settled: when it will be. Settled but waiting for a writer or quiet: poll.
    const auto due = e.stable_since + settle_;
    const auto when = due > now ? due : now + kWriterPoll;
    if (!next || when < *next) next = when;
  }
  return next;
}

}  // namespace kbv::kbvd
