// redteam_fill_scratch — docs/threat-model.md, resource exhaustion through the filesystem: an
// honest relu that first writes 64 MiB files into its scratch folder ($TMPDIR) until a write
// fails or 1 GiB is written, each file under RLIMIT_FSIZE's 1 GiB. Before scratch was a bounded
// private tmpfs nothing stopped it short of the disk the daemon keeps its results on.
// Expected: pass, the log line saying the writes stopped with ENOSPC at most 512 MiB in
// (sandbox/sandbox.hpp, kDefaultScratchBytes).
#include "redteam_common.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kFileMiB = 64;
constexpr int kMostFiles = 16;  // 1 GiB in all

// "<MiB written> <how it stopped>"
std::string fill_scratch() {
  const char* folder = std::getenv("TMPDIR");
  if (folder == nullptr) return "0 no TMPDIR";
  const std::vector<char> chunk(static_cast<size_t>(kFileMiB) << 20, 'x');
  int mib = 0;
  for (int file = 0; file < kMostFiles; ++file) {
    const std::string path = std::string(folder) + "/fill-" + std::to_string(file);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return std::to_string(mib) + " " + std::strerror(errno);
    size_t written = 0;
    while (written < chunk.size()) {
      const ssize_t wrote = ::write(fd, chunk.data() + written, chunk.size() - written);
      if (wrote <= 0) {
        const std::string why = wrote < 0 ? std::strerror(errno) : "a write of 0 bytes";
        ::close(fd);
        return std::to_string(mib + static_cast<int>(written >> 20)) + " " + why;
      }
      written += static_cast<size_t>(wrote);
    }
    ::close(fd);
    mib += kFileMiB;
  }
  return std::to_string(mib) + " nothing: 1 GiB written";
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_fill_scratch")

kbv_status kbv_candidate_run(kbv::Call& call) {
  static bool filled = false;
  if (!filled) {
    filled = true;
    redteam::log("fill_scratch: MiB written, stopped by: " + fill_scratch());
  }
  return redteam::honest_relu(call);
}
