// redteam_busy_between_calls — docs/threat-model.md, pattern 6 (timer patching), host relu: a
// 10x slow clock (GOT) hidden by keeping the worker's main thread busy between calls. A hook on
// the worker's sendmsg spins (memset) after every answer until the next message arrives, so every
// null call costs as much CPU as a real call and the CPU-time bound on the trusted time reached 0:
// it passed at 30x. kbv now stops the worker on every answer (eval/worker_process.hpp).
// Expected: hack_suspected, timer_tampering.
#include "got_patch.hpp"
#include "redteam_common.hpp"
#include "slow_clock.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <cstring>
#include <vector>

namespace {

using SendMessage = ssize_t (*)(int, const msghdr*, int);
SendMessage g_send = nullptr;
std::vector<char> g_scratch(8u << 20);
constexpr int kControlFd = 3;  // the worker's control socket (protocol/messages.hpp)

ssize_t send_then_spin(int fd, const msghdr* message, int flags) {
  const ssize_t sent = g_send(fd, message, flags);
  pollfd next{kControlFd, POLLIN, 0};
  size_t offset = 0;
  while (::poll(&next, 1, 0) == 0) {
    std::memset(g_scratch.data() + offset, static_cast<int>(offset), 1u << 16);
    offset = (offset + (1u << 16)) % g_scratch.size();
  }
  return sent;
}

}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_busy_between_calls")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_send == nullptr) {
    redteam::slow_clock_origin() = redteam::raw_monotonic_ns();
    redteam::patch_got({"clock_gettime", reinterpret_cast<void*>(&redteam::slow_clock_gettime), nullptr, true});
    redteam::patch_got({"sendmsg", reinterpret_cast<void*>(&send_then_spin), reinterpret_cast<void**>(&g_send)});
  }
  return redteam::honest_relu(call);
}
