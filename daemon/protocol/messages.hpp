// protocol/messages.hpp — the messages between the trusted evaluator and kbv-worker.
//
// Transport: one AF_UNIX SOCK_SEQPACKET socketpair (message boundaries kept, no partial
// reads). Each message is a JSON object with a "type" field; sizes are bounded by
// kMaxMessageBytes. Nothing the worker sends is trusted: the evaluator only uses it to know
// that a call ended, and bounds every number it reports by its own observations.
//
//  worker → evaluator   {"type":"started"}: confined, device up, waiting for its candidate (a warm
//                        spare's worker starts before kbvd has one)
//  evaluator → worker   {"type":"load", "file"}: the candidate, copied by the evaluator into the
//                        read-only folder the worker was started with (--candidate-dir); a file
//                        name, no path
//  worker → evaluator   {"type":"ready", "abi_version", "problem", "device", "candidate_name",
//                        "sandbox":{"applied":[…], "unavailable":[…]}, "load_observed":{…}}
//                       {"type":"load_failed", "kind":"load_error"|"abi_error"|"sandbox_error"|
//                        "device_unavailable", "error"}
//  evaluator → worker   {"type":"setup", "arena_bytes", (host: the arena memfd rides along) "inputs":[{name, shape, dtype, offset}] per slot,
//                        "outputs":[...], "attributes":{name: value}, "slots": N}
//  worker → evaluator   {"type":"setup_done"} | {"type":"setup_failed", "error"}
//  evaluator → worker   {"type":"call", "id", "slot"}
//  worker → evaluator   {"type":"done", "id", "status", "elapsed_ns", "error", "exception",
//                        "cuda_error", "observed"}
//  worker → evaluator   {"type":"worker_error", "error", "candidate_error"}: kbv's own code in
//                        the worker failed (a CUDA call after run(), say); it then exits with
//                        kWorkerExitInternalError
//  evaluator → worker   {"type":"exit"}   (worker calls destroy() and exits 0)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::protocol {

// Setup messages carry every tensor of every slot; 1 MiB holds thousands of descriptors.
constexpr size_t kMaxMessageBytes = 1 << 20;
// Deepest nesting a message may have: kbv's own are at most 5 levels deep (a traced call's
// records); a deeper one is refused as unreadable (receive_message).
constexpr int kMaxMessageDepth = 32;

// File descriptors the evaluator hands the worker at these fixed numbers.
constexpr int kControlFd = 3;
constexpr int kViolationFd = 5;

// kbv-worker's exit statuses. A candidate can exit() with any of them itself: the evaluator
// reads one as the worker's own only together with the message that goes before it.
constexpr int kWorkerExitOk = 0;
constexpr int kWorkerExitUsage = 2;            // bad command line (kbv and kbv-worker disagree)
constexpr int kWorkerExitLoadFailed = 3;       // after load_failed
constexpr int kWorkerExitControlLost = 4;      // the control socket failed
constexpr int kWorkerExitSetupFailed = 5;      // after setup_failed
constexpr int kWorkerExitBadRequest = 6;       // a call for a slot the setup did not make
constexpr int kWorkerExitUnknownMessage = 7;   // a message type the worker does not know
constexpr int kWorkerExitInternalError = 8;    // after worker_error

// What one of those statuses means, for verdict details; "" for any other status.
const char* worker_exit_meaning(int status);

// Sends one JSON message, optionally passing a file descriptor along with it (SCM_RIGHTS:
// the host arena travels with the setup message). false when the peer is gone.
bool send_message(int fd, const nlohmann::json& message, int pass_fd = -1);

// Receives one message, waiting at most timeout_ms (< 0: forever). nullopt on timeout, EOF
// or a malformed message (over kMaxMessageBytes, nested deeper than kMaxMessageDepth, not a JSON
// object); *eof and *malformed tell them apart. A passed fd lands in *received_fd
// (close-on-exec), else -1. Where the socket has SO_TIMESTAMPNS on, *arrival_realtime_ns gets the
// kernel's CLOCK_REALTIME stamp of the message's arrival (else 0).
std::optional<nlohmann::json> receive_message(int fd, int timeout_ms, bool* eof = nullptr, int* received_fd = nullptr,
                                              std::int64_t* arrival_realtime_ns = nullptr, bool* malformed = nullptr);

}  // namespace kbv::protocol
