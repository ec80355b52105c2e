// redteam_deep_frame — docs/threat-model.md, pattern 7 (result forgery), host relu: at load (a
// constructor, before the worker's own "ready") it writes a "ready" frame to the control socket
// whose sandbox field is 90000 arrays deep. The evaluator took the first frame as the ready and
// copied that field: the copy recursed once per level and overflowed its stack, a crash that in
// kbvd requeued every other candidate of the batch. Frames nested past kMaxMessageDepth are
// refused as unreadable now.
// Expected: hack_suspected, result_forgery.
#include "redteam_common.hpp"

#include <sys/socket.h>

#include <string>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_deep_frame")

namespace {

constexpr int kControlFd = 3;     // protocol/messages.hpp
constexpr int kDepth = 90000;     // 180 KB of brackets: under the socket's send buffer

__attribute__((constructor)) void forge_ready() {
  std::string frame = R"({"type":"ready","device":"host","problem":"relu","sandbox":)";
  frame.append(kDepth, '[');
  frame.append(kDepth, ']');
  frame += "}";
  ::send(kControlFd, frame.data(), frame.size(), MSG_NOSIGNAL);
}

}  // namespace

kbv_status kbv_candidate_run(kbv::Call& call) { return redteam::honest_relu(call); }
