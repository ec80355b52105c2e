// Turns an evaluator's exit status and JSON report into a verdict, a detail and figures.
#include "sched/outcome.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstring>

namespace kbv::kbvd {
namespace {

using nlohmann::json;

// How much of stderr a verdict's detail keeps (the tail holds the error).
constexpr std::size_t kStderrTailChars = 2000;

std::string tail(const std::string& text) {
  std::string t = text.size() > kStderrTailChars ? text.substr(text.size() - kStderrTailChars) : text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  return t;
}

// The evaluator prints one object; tolerate stray lines before it (take the last object line).
std::optional<json> parse_report(const std::string& out) {
  if (auto whole = json::parse(out, nullptr, false); !whole.is_discarded() && whole.is_object())
    return whole;
  std::size_t end = out.size();
  while (end > 0) {
    const auto start = out.rfind('\n', end - 1);
    const auto from = start == std::string::npos ? 0 : start + 1;
    const auto line = out.substr(from, end - from);
    if (!line.empty() && line.front() == '{') {
      auto parsed = json::parse(line, nullptr, false);
      if (!parsed.is_discarded() && parsed.is_object()) return parsed;
    }
    if (start == std::string::npos) break;
    end = start;
  }
  return std::nullopt;
}

std::optional<std::string> string_at(const json& j, const char* key) {
  if (j.contains(key) && j[key].is_string()) return j[key].get<std::string>();
  return std::nullopt;
}

std::optional<double> number_at(const json& j, const std::vector<const char*>& path) {
  const json* node = &j;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return std::nullopt;
    node = &(*node)[key];
  }
  if (node->is_number()) return node->get<double>();
  return std::nullopt;
}

void collect_figures(const json& r, Outcome& o) {
  // Vectors, not initializer_lists: a list inside a pair would dangle after this line.
  static const std::vector<std::pair<const char*, std::vector<const char*>>> wanted = {
      // kbv's library baselines: speedup.vs_library_* since result schema 2, vs_* before it.
      {"speedup_vs_fp32", {"speedup", "vs_library_fp32"}},
      {"speedup_vs_tf32", {"speedup", "vs_library_tf32"}},
      {"speedup_vs_fp32", {"speedup", "vs_fp32"}},
      {"speedup_vs_tf32", {"speedup", "vs_tf32"}},
      // Over PyTorch, derived from the calibration (docs/torch-calibration.md); absent when null.
      {"speedup_vs_eager_tf32", {"speedup", "vs_eager_tf32"}},
      {"speedup_vs_eager_fp32", {"speedup", "vs_eager_fp32"}},
      {"speedup_vs_compiled_tf32", {"speedup", "vs_compiled_tf32"}},
      {"memory_ratio", {"memory", "ratio"}},
      {"candidate_peak_bytes", {"memory", "candidate_peak_bytes"}},
      {"baseline_peak_bytes", {"memory", "baseline_peak_bytes"}},
      {"candidate_median_s", {"timing", "candidate", "median_s"}},
      {"candidate_iqr_s", {"timing", "candidate", "iqr_s"}},
      {"baseline_fp32_median_s", {"timing", "baseline_fp32", "median_s"}},
      {"baseline_tf32_median_s", {"timing", "baseline_tf32", "median_s"}},
      {"wall_seconds", {"wall_s"}},  // the result's wall_s (docs/result-schema.md)
  };
  for (const auto& [name, path] : wanted)
    if (auto v = number_at(r, path)) o.figures.emplace_back(name, *v);
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

}  // namespace

const std::vector<std::string>& known_verdicts() {
  static const std::vector<std::string> v = {
      "pass",     "fail_correctness", "crash",          "timeout",           "abi_error",
      "load_error", "resource",       "hack_suspected", "sandbox_violation", "bad_input"};
  return v;
}

const std::vector<std::string>& worker_exit_reasons() {
  static const std::vector<std::string> r = {
      "completed",   // exit 0 or 1 with a report
      "bad_input",   // exit 2
      "timeout",     // killed at the deadline
      "signal",      // died by a signal kbvd did not send
      "protocol_error",  // no usable report, or an exit code outside the contract
      "spare_exit",  // a warm spare ended before it was handed a candidate
      "drained",     // killed by a draining shutdown, candidate requeued
      "exec_failed"  // the evaluator command could not be started, or could not set itself up (exit 3)
  };
  return r;
}

Outcome decide_outcome(const ChildExit& exit, const std::string& stdout_text,
                       const std::string& stderr_text) {
  Outcome o;
  o.exit = exit;
  if (exit.timed_out) {
    o.verdict = "timeout";
    o.worker_exit = "timeout";
    o.detail = fmt::format("evaluator killed after {:.0f} s (evaluator.timeout_s)", exit.timeout_s);
    return o;
  }
  if (exit.term_signal) {
    o.verdict = "crash";
    o.worker_exit = "signal";
    o.detail = fmt::format("evaluator died by {}", signal_name(*exit.term_signal));
    if (const auto t = tail(stderr_text); !t.empty()) o.detail += ": " + t;
    return o;
  }
  const int code = exit.exit_code.value_or(-1);
  if (code == kEvaluatorSetupExit) {
    // Nothing was judged: the candidate goes back to the queue (the callers' part).
    o.verdict = "bad_input";
    o.worker_exit = "exec_failed";
    o.detail = "the evaluator could not set itself up (exit 3)";
    if (const auto t = tail(stderr_text); !t.empty()) o.detail += ": " + t;
    return o;
  }
  const auto report = parse_report(stdout_text);
  const bool verdict_known =
      report && string_at(*report, "verdict") &&
      std::find(known_verdicts().begin(), known_verdicts().end(), *string_at(*report, "verdict")) !=
          known_verdicts().end();

  if (code == 2 && !verdict_known) {
    o.verdict = "bad_input";
    o.worker_exit = "bad_input";
    o.detail = tail(stderr_text);
    if (o.detail.empty()) o.detail = "evaluator refused the input (exit 2) without a message";
    if (report) o.report = *report;
    return o;
  }
  if ((code != 0 && code != 1 && code != 2) || !verdict_known) {
    o.verdict = "crash";
    o.worker_exit = "protocol_error";
    o.detail = !report ? fmt::format("evaluator exited {} without a JSON report", code)
                       : fmt::format("evaluator exited {} with an unusable verdict", code);
    if (const auto t = tail(stderr_text); !t.empty()) o.detail += ": " + t;
    if (report) o.report = *report;
    return o;
  }
  const json& r = *report;
  o.report = r;
  o.verdict = *string_at(r, "verdict");
  o.worker_exit = code == 2 ? "bad_input" : "completed";
  o.detail = string_at(r, "detail").value_or(string_at(r, "error").value_or(""));
  if (o.detail.empty() && code == 2) o.detail = tail(stderr_text);
  o.hack_pattern = string_at(r, "hack_pattern");
  o.failed_family = string_at(r, "failed_family");
  if (r.contains("flags") && r["flags"].is_array()) o.flags = r["flags"];
  if (r.contains("problem") && r["problem"].is_object() && r["problem"].contains("level")) {
    const auto& level = r["problem"]["level"];
    if (level.is_number_integer()) o.problem_level = std::to_string(level.get<long long>());
    else if (level.is_string()) o.problem_level = level.get<std::string>();
  }
  collect_figures(r, o);
  return o;
}

Outcome decide_line_outcome(const std::string& line, double seconds, double timeout_s) {
  const auto report = json::parse(line, nullptr, false);
  ChildExit exit;
  exit.seconds = seconds;
  exit.timeout_s = timeout_s;
  if (!report.is_object()) {
    exit.exit_code = 1;
  } else if (report.contains("exit_status") && report["exit_status"].is_number_integer()) {
    exit.exit_code = report["exit_status"].get<int>();
  } else {
    const std::string verdict = string_at(report, "verdict").value_or("");  // a verdict of another type is no verdict
    exit.exit_code = verdict == "pass" ? 0 : verdict == "bad_input" ? 2 : 1;
  }
  return decide_outcome(exit, line, "");
}

Outcome checked_against_job(Outcome o, const std::string& job_sha256) {
  if (!o.report.is_object() || !o.report.contains("candidate") || !o.report["candidate"].is_object()) return o;
  const auto loaded = string_at(o.report["candidate"], "sha256");
  if (!loaded || loaded->empty() || *loaded == job_sha256) return o;
  Outcome replaced;
  replaced.exit = o.exit;
  replaced.verdict = "crash";
  replaced.worker_exit = "protocol_error";
  replaced.detail = fmt::format("the evaluator loaded bytes of sha256 {} for the candidate of sha256 {}: its stored object was replaced "
                                "after it was taken in (fix: make kbvd's objects/ writable by kbvd alone, and submit the candidate again)",
                                loaded->substr(0, 12), job_sha256.substr(0, 12));
  return replaced;
}

}  // namespace kbv::kbvd
