// lifetime/dir_lock.cpp — flock(2) on directories (see dir_lock.hpp).
#include "lifetime/dir_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace kbv::lifetime {

int lock_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  int error = 0;
  struct stat opened {}, named {};
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::fstat(fd, &opened) != 0 || ::lstat(dir.c_str(), &named) != 0)
    error = errno;
  else if (opened.st_ino != named.st_ino || opened.st_dev != named.st_dev)
    error = ESTALE;  // removed (by a sweeper) and made again by someone else
  if (error == 0) return fd;
  ::close(fd);
  errno = error;
  return -1;
}

void unlock_directory(int fd) {
  if (fd >= 0) ::close(fd);
}

}  // namespace kbv::lifetime
