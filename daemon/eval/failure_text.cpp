// eval/failure_text.cpp — failing calls and worker deaths in words (failure_text.hpp).
#include "eval/failure_text.hpp"

#include <string.h>

#include "protocol/messages.hpp"
#include "protocol/status_names.hpp"

namespace kbv::eval {

std::string refused_call_text(const RefusedCall& call) {
  std::string text;
  if (call.exception) {
    text = "the candidate failed the call: " + (call.error.empty() ? std::string("run() threw a C++ exception") : call.error);
  } else {
    text = "the candidate refused the call: run() returned " + protocol::status_name(call.status);
    if (const char* meaning = protocol::status_meaning(call.status); meaning[0] != '\0') text += std::string(" (") + meaning + ")";
    text += call.error.empty() ? " and gave no reason (fix: call set_error() from kbv/plugin.h, or throw from a KBV_CANDIDATE body, before "
                                 "returning a failing status)"
                               : ": " + call.error;
  }
  // The CUDA error is the worker's own observation: worth saying when the text does not already.
  if (!call.cuda_error.empty() && call.error.find(call.cuda_error.substr(0, call.cuda_error.find(' '))) == std::string::npos)
    text += "; the last CUDA error run() left: " + call.cuda_error;
  return text;
}

std::string signal_text(int signal) {
  const char* abbreviation = ::sigabbrev_np(signal);
  if (!abbreviation) return "signal " + std::to_string(signal);
  const char* description = ::sigdescr_np(signal);
  return std::string("SIG") + abbreviation + (description ? std::string(" (") + description + ")" : std::string());
}

std::string exit_text(const WorkerExit& exit, bool worker_said_why) {
  if (!exit.exited) return "did not exit when asked and was killed";
  if (exit.signaled) return "was killed by " + signal_text(exit.signal);
  std::string text = "exited with status " + std::to_string(exit.exit_status);
  const char* meaning = protocol::worker_exit_meaning(exit.exit_status);
  if (worker_said_why && meaning[0] != '\0') return text + " (" + meaning + ")";
  return text;
}

nlohmann::json exit_json(const WorkerExit& exit) {
  if (!exit.exited) return nullptr;
  if (exit.signaled) {
    const std::string name = signal_text(exit.signal);
    return {{"signal", exit.signal}, {"signal_name", name.substr(0, name.find(' '))}};
  }
  return {{"exit_status", exit.exit_status}};
}

std::string last_output_line(const std::string& tail) {
  size_t end = tail.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  const size_t newline = tail.find_last_of('\n', end);
  const size_t begin = newline == std::string::npos ? 0 : newline + 1;
  std::string line = tail.substr(begin, end + 1 - begin);
  if (line.size() > kMaxQuotedOutputBytes) line = "…" + line.substr(line.size() - kMaxQuotedOutputBytes);
  return line;
}

}  // namespace kbv::eval
