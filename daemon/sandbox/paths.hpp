// sandbox/paths.hpp — path comparison, small-file I/O and /proc/self/mountinfo for the layers.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbv::sandbox {

// `path` resolved as far as it exists (symlinks followed), else made absolute lexically.
std::filesystem::path resolved(const std::filesystem::path& path);

// True when `path` is `dir` or lies beneath it (both taken as given: resolve them first).
bool is_within(const std::filesystem::path& path, const std::filesystem::path& dir);

// The whole content of a small (proc/sys/cgroup) file, or nullopt with errno set.
std::optional<std::string> read_small_file(const std::filesystem::path& path);

// Writes `content` in one write(2) (proc and cgroup files want that); 0 or the errno.
int write_small_file(const std::filesystem::path& path, const std::string& content);

struct MountEntry {
  std::filesystem::path mount_point;
  std::string fs_type;
};

// Mounts of this process's mount namespace, in /proc/self/mountinfo order (parents first).
std::vector<MountEntry> read_mount_table();

}  // namespace kbv::sandbox
