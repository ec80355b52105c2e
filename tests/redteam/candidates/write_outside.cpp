// redteam_write_outside — sandbox escape (no writable shared filesystem, FIELD-NOTES §1 #11's
// defense), host relu: creates /tmp/kbv_escape_<pid> (a file a later candidate could read a
// cache from), logs the outcome, then computes relu honestly.
// Expected: sandbox_violation (no writable path outside the worker's scratch dir); afterwards
// no /tmp/kbv_escape_* file exists on the host.
#include "redteam_common.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace {
constexpr const char* kPayload = "written by redteam_write_outside\n";
bool g_tried = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_write_outside")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_tried) {
    g_tried = true;
    const std::string path = "/tmp/kbv_escape_" + std::to_string(getpid());
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      redteam::log("create " + path + ": " + std::strerror(errno));
    } else {
      const ssize_t written = write(fd, kPayload, std::strlen(kPayload));
      redteam::log("created " + path + (written > 0 ? " and wrote to it" : " but the write failed"));
      close(fd);
    }
  }
  return redteam::honest_relu(call);
}
