// redteam_socket_escape — sandbox escape (DESIGN: the worker has no network), host relu: opens
// a TCP socket and connects to 127.0.0.1:80 (where it could exfiltrate inputs or fetch
// precomputed outputs), logs the outcome, then computes relu honestly.
// Expected: sandbox_violation (socket(AF_INET) is denied by the worker's seccomp filter; the
// connect never happens).
#include "redteam_common.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace {
constexpr uint16_t kHttpPort = 80;
bool g_tried = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_socket_escape")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_tried) {
    g_tried = true;
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      redteam::log(std::string("socket(AF_INET): ") + std::strerror(errno));
    } else {
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_port = htons(kHttpPort);
      address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      const int rc = connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
      redteam::log(rc == 0 ? std::string("connected to 127.0.0.1:80")
                           : std::string("connect 127.0.0.1:80: ") + std::strerror(errno));
      close(fd);
    }
  }
  return redteam::honest_relu(call);
}
