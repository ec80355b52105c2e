// Client side of kbvd's control socket, for the kbv CLI and kbvctl: each call sends one JSON
// request and returns the daemon's JSON answer, or throws ControlError with its message.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

namespace kbv::control {

// kbvd refused the request, or a local file could not be sent: the same request will fail again.
class ControlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// kbvd gave no answer (not running, no reply in time, connection closed, unreadable reply) or
// said it cannot take requests now (`"retry": true`): the same request may work later.
class KbvdUnavailable : public ControlError {
 public:
  using ControlError::ControlError;
};

// $KBV_SOCKET when set, else /run/kbvd/control.sock (the systemd unit's RuntimeDirectory).
std::filesystem::path default_socket_path();

// One round trip; throws KbvdUnavailable when kbvd is not reachable, gives no answer or answers
// ok=false with retry=true, and ControlError when it answers ok=false otherwise.
nlohmann::json request(const std::filesystem::path& socket_path, const nlohmann::json& req);

// {"version", "pid", "uptime_s", "epoch", "queue": {"waiting", "running"}, "slots": [...],
//  "totals": {verdict: n}, "watch_dir", "metrics_port", "draining", ...}
nlohmann::json status(const std::filesystem::path& socket_path);

// Copies CANDIDATE (and its manifest, first) into kbvd's watch folder with the atomic publish
// convention, then asks kbvd to take it now. Only regular files named directly are copied (a
// symbolic link is refused, the file is opened with O_NOFOLLOW and checked on the descriptor),
// and a copy is never more readable than its source. Returns {"name", "sha256", "result", "state",
// "candidate_id"}: result is queued (new), duplicate (same bytes seen before), taken (kbvd's
// watcher took the file first), deferred (queue full), changing or rejected (see "message");
// state is the candidate's: queued, running or done.
nlohmann::json submit(const std::filesystem::path& socket_path, const std::filesystem::path& candidate,
                      const std::optional<std::filesystem::path>& manifest = std::nullopt);

// The most candidates one `results` answer lists: kbvd refuses a larger limit, clients ask for no more.
inline constexpr int kMaxResultsListed = 10000;

// {"results": [...]}: newest first; verdict/state ("queued", "running", "done") filter when set.
nlohmann::json results_list(const std::filesystem::path& socket_path, int limit = 50,
                            const std::string& verdict = {}, const std::string& state = {});

// One candidate by number or sha256 prefix, with every evaluation and its full report.
nlohmann::json results_show(const std::filesystem::path& socket_path, const std::string& id);

// Puts a finished candidate back in the queue: {"sha256", "candidate_id", "queued": true}.
nlohmann::json requeue(const std::filesystem::path& socket_path, const std::string& id);

// SHA-256 of a file, as kbvd computes a candidate's identity.
std::string file_sha256(const std::filesystem::path& file);

}  // namespace kbv::control
