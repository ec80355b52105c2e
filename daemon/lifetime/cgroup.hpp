// lifetime/cgroup.hpp — cgroup v2 groups a process makes for its children, so that they and
// everything they start can be killed as a whole and found again after the owner died.
//
// Ownership is an flock on the group's directory, held by the process that made it (close-on-
// exec, so children do not inherit it). The kernel drops the lock when the owner dies however it
// dies, so a later sweep (sweep_abandoned_cgroups) tells a live owner's group from an abandoned
// one without trusting pids, which are reused and differ between pid namespaces.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace kbv::lifetime {

// How long a killed group may take to empty before remove() gives up: SIGKILL ends a process at
// its next return to user space, so only one stuck in the kernel (a GPU driver call) takes longer.
inline constexpr std::chrono::milliseconds kCgroupEmptyWait{5000};

// The cgroup v2 directory this process belongs to (the unified mount, /sys/fs/cgroup or
// /sys/fs/cgroup/unified on a hybrid host, plus the 0:: line of /proc/self/cgroup), or nothing
// with the reason.
std::optional<std::filesystem::path> own_cgroup(std::string* why_not);

// Moves process `pid` (0: the caller, with all its threads) into `group`; 0 or an errno.
int move_to_cgroup(const std::filesystem::path& group, pid_t pid);

// SIGKILL to every process in `group` and in the groups below it (cgroup.kill, or one kill(2)
// per listed process on kernels before 5.14).
void kill_cgroup(const std::filesystem::path& group);

// True while `group` or a group below it holds a process (cgroup.events).
bool cgroup_populated(const std::filesystem::path& group);

// Processes in `group` and below it right now.
int count_cgroup_processes(const std::filesystem::path& group);

// Kills everything in `group`, waits up to `wait` for it to empty, then removes it and the groups
// below it. True when the group is gone (or never existed).
bool kill_and_remove_cgroup(const std::filesystem::path& group, std::chrono::milliseconds wait = kCgroupEmptyWait);

// `group` if its owner is gone (its lock is free): killed and removed. Returns how many processes
// it still held, or -1 when its owner lives (a recorded path whose name a live process reuses).
int kill_abandoned_cgroup(const std::filesystem::path& group);

// Groups under `parent` whose names start with `prefix` and whose owner is gone: killed and
// removed. Returns how many processes they still held (a process that outlived its owner).
int sweep_abandoned_cgroups(const std::filesystem::path& parent, const std::string& prefix);

class OwnedCgroup {
 public:
  // Makes parent/name and takes its lock; nothing (with the reason) where the caller may not
  // make groups there (no cgroup v2, read-only cgroupfs, no delegation). A group of that name
  // left by a dead owner is killed and replaced.
  static std::optional<OwnedCgroup> create(const std::filesystem::path& parent, const std::string& name,
                                           std::string* why_not);
  OwnedCgroup(OwnedCgroup&& other) noexcept;
  OwnedCgroup& operator=(OwnedCgroup&& other) noexcept;
  OwnedCgroup(const OwnedCgroup&) = delete;
  OwnedCgroup& operator=(const OwnedCgroup&) = delete;
  ~OwnedCgroup();  // kill_and_remove_cgroup, then the lock goes

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path procs_file() const { return path_ / "cgroup.procs"; }
  void kill() const { kill_cgroup(path_); }
  bool populated() const { return cgroup_populated(path_); }
  // Kills what is left and removes the group if it is already empty, without waiting; a group
  // still emptying is left to the next sweep. Then the lock goes.
  void abandon();
  // Drops the lock and leaves the group as it is, for a later sweep (used when killing it would
  // kill the caller, which failed to leave it).
  void disown();

 private:
  OwnedCgroup(std::filesystem::path path, int lock_fd) : path_(std::move(path)), lock_fd_(lock_fd) {}
  void release();

  std::filesystem::path path_;
  int lock_fd_ = -1;
};

}  // namespace kbv::lifetime
