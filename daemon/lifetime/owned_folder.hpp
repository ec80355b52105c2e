// lifetime/owned_folder.hpp — a temporary folder that cannot be left behind: removed when its
// object goes, by the stop-signal thread (stop_signals.hpp), and, after a SIGKILL, by the next
// process that makes a folder with the same prefix there.
//
// It is named PREFIX<pid>-XXXXXX (the pid is for people; ownership is an flock on the folder,
// dir_lock.hpp), so a sweep removes exactly the folders whose owner is gone, whatever pid
// namespace that owner was in.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

namespace kbv::lifetime {

class StopCleanup;

class OwnedFolder {
 public:
  // Sweeps abandoned PREFIX… folders in `parent`, then makes and locks a new one (mode 0700).
  // Throws std::runtime_error when it cannot.
  OwnedFolder(const std::filesystem::path& parent, const std::string& prefix);
  ~OwnedFolder();
  OwnedFolder(const OwnedFolder&) = delete;
  OwnedFolder& operator=(const OwnedFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int lock_fd_ = -1;
  std::unique_ptr<StopCleanup> on_stop_;
};

// Removes the folders PREFIX<digits>-XXXXXX in `parent` whose owner is gone; returns how many.
// Names of another shape (an older kbv's folders, which hold no lock) are left alone.
int sweep_abandoned_folders(const std::filesystem::path& parent, const std::string& prefix);

}  // namespace kbv::lifetime
