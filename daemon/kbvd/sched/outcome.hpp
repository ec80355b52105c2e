// What one evaluator child produced, turned into a verdict record: JSON report, exit, signal.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kbv::kbvd {

// The verdicts kbv eval reports (daemon/eval), plus none of kbvd's own making.
const std::vector<std::string>& known_verdicts();
// Why an evaluator process ended, from kbvd's side (metric label kbv_worker_exits_total).
const std::vector<std::string>& worker_exit_reasons();

// How the child ended.
struct ChildExit {
  std::optional<int> exit_code;    // set when it exited
  std::optional<int> term_signal;  // set when a signal ended it
  bool timed_out = false;          // kbvd killed it at the deadline
  double timeout_s = 0;
  double seconds = 0;  // from candidate hand-over to exit, measured by kbvd
};

struct Outcome {
  std::string verdict;
  std::string detail;
  std::optional<std::string> hack_pattern;
  std::optional<std::string> failed_family;
  nlohmann::json flags = nlohmann::json::array();
  std::optional<std::string> problem_level;  // "1", "2", "3" when the report says
  nlohmann::json report;                     // the evaluator's object, or null
  std::vector<std::pair<std::string, double>> figures;
  std::string worker_exit;  // one of worker_exit_reasons()
  ChildExit exit;
};

// kbv eval's exit when its own set-up failed (problem specs, secret key) before any candidate was
// looked at (cli/command_line.hpp, kExitEvaluatorSetup): the outcome's worker_exit is
// "exec_failed", and kbvd and kbv sweep requeue the candidates instead of recording a verdict.
inline constexpr int kEvaluatorSetupExit = 3;

// Decides the outcome from the exit and the child's stdout/stderr (the contract of kbv eval:
// exit 0 pass, 1 other verdict, 2 bad input, 3 the evaluator's own set-up failed; one JSON object
// on stdout).
Outcome decide_outcome(const ChildExit& exit, const std::string& stdout_text,
                       const std::string& stderr_text);

// One candidate's outcome from its JSON line, printed by an evaluator that evaluates several in
// turn (it has not exited): the exit status is the one `kbv eval` of that candidate alone gives
// (the report's exit_status; from the verdict for a report without one).
Outcome decide_line_outcome(const std::string& line, double seconds, double timeout_s);

// `o` when the bytes the evaluator loaded (its report's candidate.sha256) are the job's, or it
// named none; else a crash (protocol_error) saying so, with no figures: the stored object was
// replaced after ingest (review: a group member renamed its own .so over objects/<sha>.so, and
// its verdict was recorded under the victim's candidate).
Outcome checked_against_job(Outcome o, const std::string& job_sha256);

}  // namespace kbv::kbvd
