// lifetime/owned_folder.cpp — flock-owned temporary folders and their sweep (see owned_folder.hpp).
#include "lifetime/owned_folder.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "lifetime/dir_lock.hpp"
#include "lifetime/remove_tree.hpp"
#include "lifetime/stop_signals.hpp"

namespace kbv::lifetime {
namespace {
namespace fs = std::filesystem;

constexpr std::size_t kRandomSuffix = 6;  // mkdtemp's XXXXXX

// PREFIX, decimal pid, '-', six characters from mkdtemp: the only names a sweep may remove.
bool owned_name(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return false;
  const std::string rest = name.substr(prefix.size());
  const auto dash = rest.find('-');
  if (dash == 0 || dash == std::string::npos || rest.size() - dash - 1 != kRandomSuffix) return false;
  return std::all_of(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(dash), ::isdigit) &&
         std::all_of(rest.begin() + static_cast<std::ptrdiff_t>(dash) + 1, rest.end(), ::isalnum);
}

void remove_folder(const fs::path& folder) {
  std::string why;
  if (!remove_tree(folder, &why)) std::fprintf(stderr, "kbv: could not remove a temporary folder: %s\n", why.c_str());
}

}  // namespace

int sweep_abandoned_folders(const fs::path& parent, const std::string& prefix) {
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    if (!owned_name(entry.path().filename().string(), prefix) || !entry.is_directory(ec) || entry.is_symlink(ec)) continue;
    const int lock = lock_directory(entry.path());
    if (lock < 0) continue;  // its owner lives
    remove_folder(entry.path());
    unlock_directory(lock);
    ++removed;
  }
  return removed;
}

OwnedFolder::OwnedFolder(const fs::path& parent, const std::string& prefix) {
  sweep_abandoned_folders(parent, prefix);
  // A concurrent sweep may take a folder between mkdtemp and its lock: make another.
  for (int attempt = 0; attempt < 3 && lock_fd_ < 0; ++attempt) {
    std::string pattern = (parent / (prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("cannot create a folder under " + parent.string() + ": " + std::strerror(errno));
    lock_fd_ = lock_directory(pattern);
    path_ = pattern;
  }
  if (lock_fd_ < 0) throw std::runtime_error("cannot lock a new folder under " + parent.string() + ": " + std::strerror(errno));
  on_stop_ = std::make_unique<StopCleanup>([path = path_] { remove_folder(path); });
}

OwnedFolder::~OwnedFolder() {
  on_stop_.reset();  // first: the stop thread must not remove it while this does
  remove_folder(path_);
  unlock_directory(lock_fd_);
}

}  // namespace kbv::lifetime
