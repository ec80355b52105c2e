// A POSIX record lock (fcntl F_SETLK) on STATE_DIR/kbvd.lock, holding the owner's pid for the
// error message. Unlike flock(2), a record lock belongs to the process, not to the open file:
// an evaluator forked by kbvd does not hold it in the moment before its exec, so a kbvd
// restarted right after a kill -9 finds it free.
#include "store/state_lock.hpp"

#include <fcntl.h>
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
  struct flock whole {};
  whole.l_type = F_WRLCK;
  whole.l_whence = SEEK_SET;  // l_start 0, l_len 0: the whole file
  if (::fcntl(fd_, F_SETLK, &whole) != 0) {
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
