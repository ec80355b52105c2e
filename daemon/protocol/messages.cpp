// protocol/messages.cpp — JSON messages over a SOCK_SEQPACKET socket, with optional fd passing.
#include "protocol/messages.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <vector>

#include "kbvd/client/json_parse.hpp"

namespace kbv::protocol {

const char* worker_exit_meaning(int status) {
  switch (status) {
    case kWorkerExitOk: return "it finished normally";
    case kWorkerExitUsage: return "kbv and kbv-worker disagree on the command line";
    case kWorkerExitLoadFailed: return "the candidate could not be loaded";
    case kWorkerExitControlLost: return "its control socket failed";
    case kWorkerExitSetupFailed: return "it could not set up the call buffers";
    case kWorkerExitBadRequest: return "it was asked for a slot it does not have";
    case kWorkerExitUnknownMessage: return "it received a message it does not know";
    case kWorkerExitInternalError: return "kbv's own code in the worker failed";
    default: return "";
  }
}

bool send_message(int fd, const nlohmann::json& message, int pass_fd) {
  // Text from the candidate (its name, set_error(), an exception's what()) need not be UTF-8: an
  // invalid sequence becomes U+FFFD rather than an exception that ends the sender.
  std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > kMaxMessageBytes) return false;
  iovec part{text.data(), text.size()};
  msghdr header{};
  header.msg_iov = &part;
  header.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  if (pass_fd >= 0) {
    std::memset(control, 0, sizeof control);
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    cmsghdr* rights = CMSG_FIRSTHDR(&header);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(rights), &pass_fd, sizeof(int));
  }
  ssize_t sent;
  do {
    sent = ::sendmsg(fd, &header, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  return sent == static_cast<ssize_t>(text.size());
}

std::optional<nlohmann::json> receive_message(int fd, int timeout_ms, bool* eof, int* received_fd, std::int64_t* arrival_realtime_ns,
                                              bool* malformed) {
  if (eof) *eof = false;
  if (malformed) *malformed = false;
  if (received_fd) *received_fd = -1;
  if (arrival_realtime_ns) *arrival_realtime_ns = 0;
  pollfd waiter{fd, POLLIN, 0};
  int ready;
  do {
    ready = ::poll(&waiter, 1, timeout_ms);
  } while (ready < 0 && errno == EINTR);
  if (ready <= 0) return std::nullopt;
  // One buffer per thread, allocated once: a fresh 1 MiB buffer per message would cost page
  // faults on every call and blur the timing cross-check.
  thread_local std::vector<char> buffer(kMaxMessageBytes + 1);
  iovec part{buffer.data(), buffer.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(timespec))];
  msghdr header{};
  header.msg_iov = &part;
  header.msg_iovlen = 1;
  header.msg_control = control;
  header.msg_controllen = sizeof control;
  ssize_t received;
  do {
    received = ::recvmsg(fd, &header, MSG_CMSG_CLOEXEC);
  } while (received < 0 && errno == EINTR);
  if (received <= 0) {
    if (eof) *eof = true;
    return std::nullopt;
  }
  for (cmsghdr* item = CMSG_FIRSTHDR(&header); item; item = CMSG_NXTHDR(&header, item)) {
    if (item->cmsg_level == SOL_SOCKET && item->cmsg_type == SCM_TIMESTAMPNS && arrival_realtime_ns) {
      timespec stamp{};
      std::memcpy(&stamp, CMSG_DATA(item), sizeof stamp);
      *arrival_realtime_ns = static_cast<std::int64_t>(stamp.tv_sec) * 1'000'000'000 + stamp.tv_nsec;
    }
    if (item->cmsg_level == SOL_SOCKET && item->cmsg_type == SCM_RIGHTS) {
      int passed;
      std::memcpy(&passed, CMSG_DATA(item), sizeof passed);
      if (received_fd) *received_fd = passed;
      else ::close(passed);
    }
  }
  const auto refuse = [&] {
    if (malformed) *malformed = true;
    return std::nullopt;
  };
  if (static_cast<size_t>(received) > kMaxMessageBytes || (header.msg_flags & MSG_TRUNC)) return refuse();
  // Nesting bounded while parsing: copying and destroying a value recurse, and the evaluator
  // copies parts of the worker's messages (red-team: a forged "ready" whose sandbox field was
  // 100000 arrays deep would overflow the evaluator's stack).
  nlohmann::json parsed =
      control::parse_bounded(std::string_view(buffer.data(), static_cast<std::size_t>(received)), kMaxMessageDepth);
  if (parsed.is_discarded() || !parsed.is_object()) return refuse();
  return parsed;
}

}  // namespace kbv::protocol
