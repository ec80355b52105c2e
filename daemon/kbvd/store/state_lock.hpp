// One kbvd per state directory: a record lock (fcntl) held for the daemon's life, taken before recovery
// touches evaluations another daemon may be running.
#pragma once

#include <filesystem>

namespace kbv::kbvd {

class StateLock {
 public:
  explicit StateLock(const std::filesystem::path& state_dir);  // throws if another kbvd holds it
  ~StateLock();
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace kbv::kbvd
