// io/whole_file.cpp — whole-file writes and bounded reads (whole_file.hpp).
#include "io/whole_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>

namespace kbv::io {

void write_file_whole(const std::filesystem::path& path, const std::string& text) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  char suffix[24];
  std::snprintf(suffix, sizeof suffix, "-%llx", static_cast<unsigned long long>(random()));
  const std::filesystem::path temporary = path.parent_path() / (std::string(kTemporaryPrefix) + path.filename().string() + suffix);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error(temporary.string() + ": cannot create: " + std::strerror(errno) + "; fix: check the folder's permissions and free space");
  std::size_t written = 0;
  while (written < text.size()) {
    const auto n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      throw std::runtime_error(temporary.string() + ": cannot write: " + std::strerror(saved) + "; fix: free space on its file system");
    }
    written += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced || ::rename(temporary.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    throw std::runtime_error(path.string() + ": cannot write: " + std::strerror(saved) + "; fix: check the folder's permissions and free space");
  }
}

BoundedRead read_bounded_file(const std::filesystem::path& path, std::size_t max_bytes) {
  BoundedRead read;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    read.refused = ReadRefusal::cannot_open;
    read.open_errno = errno;
    return read;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    read.refused = ReadRefusal::not_regular;
  } else if (static_cast<std::size_t>(info.st_size) > max_bytes) {
    read.refused = ReadRefusal::too_large;
  } else {
    read.text.resize(static_cast<std::size_t>(info.st_size));
    std::size_t done = 0;
    while (done < read.text.size()) {
      const ssize_t got = ::read(fd, read.text.data() + done, read.text.size() - done);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      done += static_cast<std::size_t>(got);
    }
    read.text.resize(done);
  }
  ::close(fd);
  return read;
}

}  // namespace kbv::io
