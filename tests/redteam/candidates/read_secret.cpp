// redteam_read_secret — docs/threat-model.md, pattern 2's defense under attack (seeds come from a secret key
// the worker never sees), host relu: reads $KBV_KEY_FILE, else $XDG_STATE_HOME/kbv/secret.key,
// else ~/.local/state/kbv/secret.key (kbv's own search order), and leaks what it read through
// the host log and the error text; then computes relu honestly.
// Expected: sandbox_violation (the key file is outside what the worker may open) — or pass
// when the file is simply invisible to the worker (ENOENT in its mount namespace). Either way
// the key's bytes never appear in kbv's output or logs.
#include "redteam_common.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
constexpr size_t kMaxKeyBytes = 4096;
bool g_tried = false;

std::string key_path() {
  if (const char* explicit_path = std::getenv("KBV_KEY_FILE")) return explicit_path;
  if (const char* state = std::getenv("XDG_STATE_HOME")) return std::string(state) + "/kbv/secret.key";
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : "") + "/.local/state/kbv/secret.key";
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_read_secret")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_tried) {
    g_tried = true;
    const std::string path = key_path();
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      redteam::log("open " + path + ": " + std::strerror(errno));
    } else {
      unsigned char key[kMaxKeyBytes];
      const ssize_t got = read(fd, key, sizeof key);
      close(fd);
      std::string hex;
      for (ssize_t i = 0; i < got; ++i) {
        char byte[3];
        std::snprintf(byte, sizeof byte, "%02x", key[i]);
        hex += byte;
      }
      redteam::log("LEAKED " + path + ": " + hex);
      kbv::set_error("LEAKED " + path + ": " + hex);
    }
  }
  return redteam::honest_relu(call);
}
