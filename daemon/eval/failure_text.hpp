// eval/failure_text.hpp — the words a verdict's detail uses when a call fails or the worker
// dies: the status a candidate returned, by name and with its reason; how the worker ended
// (the signal by name); the last line it wrote. Pure functions of what the evaluator holds.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "eval/worker_process.hpp"

namespace kbv::eval {

// What the worker said about one failing call ("done" with a status other than OK).
struct RefusedCall {
  int status = 0;
  std::string error;       // the candidate's set_error text, or what the worker saw fail
  bool exception = false;  // a C++ exception escaped run() (error holds its what())
  std::string cuda_error;  // the last CUDA error run() left, "" if none
};

// "the candidate refused the call: run() returned KBV_STATUS_UNSUPPORTED (a valid request it
// does not implement) and gave no reason (fix: …)", or, for an exception, "run() threw …".
std::string refused_call_text(const RefusedCall& call);

// "SIGSEGV (Segmentation fault)"; "signal 77" for a number the C library does not name.
std::string signal_text(int signal);

// How the worker ended, for a detail: "was killed by SIGSEGV (Segmentation fault)", "exited
// with status 8 (kbv's own code in the worker failed)". `worker_said_why`: the worker reported
// before it exited (worker_error, load_failed), so its own exit statuses mean what
// protocol/messages.hpp says; otherwise a status may be the candidate's own exit() and is given
// bare.
std::string exit_text(const WorkerExit& exit, bool worker_said_why);

// The raw facts for the report's JSON (worker_exit): {"exit_status": 8} or {"signal": 11,
// "signal_name": "SIGSEGV"}; null when the worker was not reaped.
nlohmann::json exit_json(const WorkerExit& exit);

// The last non-empty line of the worker's output (at most kMaxQuotedOutputBytes of it, the
// end kept), "" if there is none: what a crash detail quotes.
std::string last_output_line(const std::string& tail);
constexpr size_t kMaxQuotedOutputBytes = 300;

}  // namespace kbv::eval
