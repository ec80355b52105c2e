// flock(2) on STATE_DIR/kbvd.lock, holding the owner's pid for the error message.
#include "store/state_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <string>

namespace kbv::kbvd {

StateLock::StateLock(const std::filesystem::path& state_dir) {
  const auto path = state_dir / "kbvd.lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(fmt::format("{}: {}", path.string(), std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char owner[32] = {};
    [[maybe_unused]] auto n = ::pread(fd_, owner, sizeof owner - 1, 0);
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error(fmt::format(
        "another kbvd (pid {}) uses the state directory {}; fix: stop it, or give this one its "
        "own store.state_dir", std::string(owner).substr(0, std::string(owner).find('\n')),
        state_dir.string()));
  }
  const auto pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) [[maybe_unused]] auto n = ::pwrite(fd_, pid.data(), pid.size(), 0);
}

StateLock::~StateLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace kbv::kbvd
