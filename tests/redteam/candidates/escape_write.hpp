// escape_write.hpp — the write-outside-scratch attempt both write_outside candidates (host and
// CUDA) make: create <prefix><pid> and write to it; returns what happened, for the log.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace redteam {

inline std::string try_write_outside(const std::string& prefix, const char* payload) {
  const std::string path = prefix + std::to_string(getpid());
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "create " + path + ": " + std::strerror(errno);
  const ssize_t written = write(fd, payload, std::strlen(payload));
  close(fd);
  return "created " + path + (written > 0 ? " and wrote to it" : " but the write failed");
}

}  // namespace redteam
