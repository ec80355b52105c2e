// io/whole_file.cpp — whole-file writes (whole_file.hpp).
#include "io/whole_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace kbv::io {

void write_file_whole(const std::filesystem::path& path, const std::string& text) {
  // A temporary made by mkstemp (O_EXCL: never a file or a link someone left at a name we would
  // pick), given the mode an ordinary file gets, then renamed over `path` (which replaces a link
  // there instead of following it).
  std::string temporary = path.string() + ".tmp.XXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0)
    throw std::runtime_error(path.string() + ": cannot write beside it: " + std::strerror(errno) +
                             " (fix: check the directory exists and is writable)");
  constexpr mode_t kFileMode = 0644;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  bool written = ::fchmod(fd, kFileMode & ~mask) == 0;
  for (std::size_t at = 0; written && at < text.size();) {
    const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) continue;
    written = n > 0;
    if (written) at += static_cast<std::size_t>(n);
  }
  const int write_errno = errno;
  written = ::close(fd) == 0 && written;
  if (!written) {
    ::unlink(temporary.c_str());  // a full disk leaves no half file behind
    throw std::runtime_error(path.string() + ": write failed: " + std::strerror(write_errno));
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    ::unlink(temporary.c_str());
    throw std::runtime_error(path.string() + ": cannot replace: " + error.message());
  }
}

}  // namespace kbv::io
