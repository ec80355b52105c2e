// lifetime/cgroup.cpp — cgroup v2 groups for children (see cgroup.hpp).
#include "lifetime/cgroup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "lifetime/dir_lock.hpp"

namespace kbv::lifetime {
namespace {
namespace fs = std::filesystem;

// How often a killed group is looked at while it empties.
constexpr std::chrono::milliseconds kEmptyPoll{5};
// Kernels before 5.14 have no cgroup.kill: kill(2) each listed process, this many rounds, to
// catch a process forked between one listing and its kill.
constexpr int kKillRounds = 20;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int write_text(const fs::path& file, const std::string& text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int error = written == static_cast<ssize_t>(text.size()) ? 0 : (written < 0 ? errno : EIO);
  ::close(fd);
  return error;
}

// Mount points in /proc/self/mounts escape blanks as octal (\040).
std::string unescape_mount_path(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      out.push_back(static_cast<char>(std::stoi(text.substr(i + 1, 3), nullptr, 8)));
      i += 3;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::vector<fs::path> subgroups(const fs::path& group) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(group, ec))
    if (entry.is_directory(ec) && !entry.is_symlink(ec)) out.push_back(entry.path());
  return out;
}

std::vector<pid_t> member_pids(const fs::path& group) {
  std::vector<pid_t> pids;
  std::istringstream in(read_text(group / "cgroup.procs"));
  for (long pid; in >> pid;) pids.push_back(static_cast<pid_t>(pid));
  for (const auto& sub : subgroups(group)) {
    const auto below = member_pids(sub);
    pids.insert(pids.end(), below.begin(), below.end());
  }
  return pids;
}

// rmdir of the groups below first: a group with children cannot go.
bool remove_tree(const fs::path& group) {
  for (const auto& sub : subgroups(group)) remove_tree(sub);
  return ::rmdir(group.c_str()) == 0 || errno == ENOENT;
}

}  // namespace

std::optional<fs::path> own_cgroup(std::string* why_not) {
  fs::path mount;
  std::istringstream mounts(read_text("/proc/self/mounts"));
  for (std::string line; std::getline(mounts, line);) {
    std::istringstream fields(line);
    std::string device, point, type;
    fields >> device >> point >> type;
    if (type == "cgroup2") {
      mount = unescape_mount_path(point);
      break;
    }
  }
  if (mount.empty()) {
    *why_not = "no cgroup2 file system is mounted";
    return std::nullopt;
  }
  std::istringstream membership(read_text("/proc/self/cgroup"));
  for (std::string line; std::getline(membership, line);)
    if (line.rfind("0::", 0) == 0) {
      const fs::path own = fs::path(line.substr(3)).relative_path();
      return own.empty() ? mount : mount / own;
    }
  *why_not = "/proc/self/cgroup has no cgroup v2 (0::) line";
  return std::nullopt;
}

int move_to_cgroup(const fs::path& group, pid_t pid) {
  return write_text(group / "cgroup.procs", std::to_string(pid));
}

void kill_cgroup(const fs::path& group) {
  if (write_text(group / "cgroup.kill", "1") == 0) return;
  for (int round = 0; round < kKillRounds; ++round) {
    const auto pids = member_pids(group);
    if (pids.empty()) return;
    for (const pid_t pid : pids) ::kill(pid, SIGKILL);
  }
}

bool cgroup_populated(const fs::path& group) {
  std::istringstream events(read_text(group / "cgroup.events"));
  for (std::string key, value; events >> key >> value;)
    if (key == "populated") return value != "0";
  return false;  // gone, or not a cgroup v2 group
}

int count_cgroup_processes(const fs::path& group) { return static_cast<int>(member_pids(group).size()); }

bool kill_and_remove_cgroup(const fs::path& group, std::chrono::milliseconds wait) {
  std::error_code ec;
  if (!fs::exists(group, ec)) return true;
  kill_cgroup(group);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (cgroup_populated(group)) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kEmptyPoll);
    kill_cgroup(group);  // anything forked since
  }
  return remove_tree(group);
}

int kill_abandoned_cgroup(const fs::path& group) {
  std::error_code ec;
  if (!fs::exists(group, ec)) return 0;
  const int lock = lock_directory(group);
  if (lock < 0) return -1;  // its owner lives (or someone else is sweeping it)
  const int survivors = count_cgroup_processes(group);
  kill_and_remove_cgroup(group);
  unlock_directory(lock);
  return survivors;
}

int sweep_abandoned_cgroups(const fs::path& parent, const std::string& prefix) {
  int survivors = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !entry.is_directory(ec)) continue;
    survivors += std::max(0, kill_abandoned_cgroup(entry.path()));
  }
  return survivors;
}

std::optional<OwnedCgroup> OwnedCgroup::create(const fs::path& parent, const std::string& name, std::string* why_not) {
  const fs::path path = parent / name;
  // A sweeper may remove the group between mkdir and lock_directory: try again a few times.
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (::mkdir(path.c_str(), 0755) != 0) {
      const int error = errno;
      if (error != EEXIST) {
        *why_not = "cannot make the cgroup " + path.string() + ": " + std::strerror(error);
        return std::nullopt;
      }
      // The same name from a dead owner (pids repeat): take it over if nobody holds it.
      const int stale = lock_directory(path);
      if (stale < 0) {
        *why_not = "the cgroup " + path.string() + " exists and is in use";
        return std::nullopt;
      }
      kill_and_remove_cgroup(path);
      unlock_directory(stale);
      continue;
    }
    const int lock = lock_directory(path);
    if (lock >= 0) return OwnedCgroup(path, lock);
  }
  *why_not = "cannot make and lock the cgroup " + path.string() + " (removed by a concurrent sweep each time)";
  return std::nullopt;
}

OwnedCgroup::OwnedCgroup(OwnedCgroup&& other) noexcept
    : path_(std::move(other.path_)), lock_fd_(std::exchange(other.lock_fd_, -1)) {}

OwnedCgroup& OwnedCgroup::operator=(OwnedCgroup&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    lock_fd_ = std::exchange(other.lock_fd_, -1);
  }
  return *this;
}

OwnedCgroup::~OwnedCgroup() { release(); }

void OwnedCgroup::abandon() {
  if (lock_fd_ < 0) return;
  kill();
  if (!populated()) remove_tree(path_);
  unlock_directory(std::exchange(lock_fd_, -1));
}

void OwnedCgroup::disown() { unlock_directory(std::exchange(lock_fd_, -1)); }

void OwnedCgroup::release() {
  if (lock_fd_ < 0) return;
  kill_and_remove_cgroup(path_);
  unlock_directory(std::exchange(lock_fd_, -1));
}

}  // namespace kbv::lifetime
