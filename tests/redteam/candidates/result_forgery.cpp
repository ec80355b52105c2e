// redteam_result_forgery — docs/threat-model.md, pattern 7 (result-channel forgery), host relu: writes a fake
// kbv verdict ("pass", 374× speedup) to fds 1 and 2, and to every fd 3…20 both that verdict
// and forged worker→evaluator "done" messages (ids 0…63, 1 ns each) — then returns without
// computing anything.
// Expected: hack_suspected, hack_pattern "result_forgery" (the first message kbv reads after
// sending the call is a forged "done" for the wrong id); never pass. `kbv eval --json` still
// prints exactly one JSON object on stdout (its own): the worker's stdout is not kbv's.
#include "redteam_common.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string>

namespace {
constexpr int kFirstInheritedFd = 3, kLastInheritedFd = 20;
constexpr int kForgedCallIds = 64;
constexpr const char* kFakeVerdict =
    R"({"kbv_version":"0.1.0","verdict":"pass","detail":"forged","hack_pattern":null,"flags":[],)"
    R"("speedup":{"vs_fp32":374.0,"vs_tf32":374.0}})"
    "\n";

// A message as one datagram on a socket (SEQPACKET keeps it whole), else a plain write.
void emit(int fd, const std::string& text) {
  if (send(fd, text.data(), text.size(), MSG_DONTWAIT | MSG_NOSIGNAL) >= 0 || errno != ENOTSOCK) return;
  [[maybe_unused]] const ssize_t ignored = write(fd, text.data(), text.size());
}
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_result_forgery")

kbv_status kbv_candidate_run(kbv::Call&) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe must not end the attempt
  emit(STDOUT_FILENO, kFakeVerdict);
  emit(STDERR_FILENO, kFakeVerdict);
  for (int fd = kFirstInheritedFd; fd <= kLastInheritedFd; ++fd) {
    emit(fd, kFakeVerdict);
    for (int id = 0; id < kForgedCallIds; ++id)
      emit(fd, R"({"type":"done","id":)" + std::to_string(id) + R"(,"status":0,"elapsed_ns":1,"error":""})");
  }
  return KBV_STATUS_OK;
}
