// redteam_fork_bomb — resource exhaustion (bounded), host relu: on its first call it tries 10000
// forks; each child sleeps a few seconds and exits, so they pile up. Logs how many forks
// succeeded, then computes relu honestly.
// Expected: sandbox_violation (fork/clone of new processes denied) or resource (the worker's
// pids limit stops it); either way the machine keeps working and kbv carries on.
#include "redteam_common.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace {
constexpr int kForkAttempts = 10000;
constexpr unsigned kChildSeconds = 5;  // bounded: the children go away on their own
bool g_tried = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_fork_bomb")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_tried) {
    g_tried = true;
    int forked = 0;
    int failure = 0;
    for (int i = 0; i < kForkAttempts; ++i) {
      const pid_t child = fork();
      if (child == 0) {
        sleep(kChildSeconds);
        _exit(0);
      }
      if (child < 0) {
        failure = errno;
        break;
      }
      ++forked;
    }
    redteam::log("forked " + std::to_string(forked) + " children" +
                 (failure != 0 ? std::string(", then: ") + std::strerror(failure) : std::string()));
  }
  return redteam::honest_relu(call);
}
