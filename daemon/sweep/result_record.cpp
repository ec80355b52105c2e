// daemon/sweep/result_record.cpp — build a result record from either way of evaluating.
#include "sweep/result_record.hpp"

#include <chrono>

namespace kbv::sweep {
namespace {

using nlohmann::json;

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

json text_or_null(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }

json base_record(const Candidate& candidate, const std::string& role, std::uint64_t epoch, const std::string& via) {
  return {{"schema", kResultSchema}, {"schema_version", kResultSchemaVersion}, {"key", candidate.key()},
          {"epoch", epoch},          {"role", role},                           {"via", via},
          {"candidate", candidate.to_json()}, {"finished_at", unix_now()}};
}

}  // namespace

json record_from_outcome(const Candidate& candidate, const std::string& role, std::uint64_t epoch, const kbvd::Outcome& outcome) {
  json record = base_record(candidate, role, epoch, "standalone");
  record["verdict"] = outcome.verdict;
  record["detail"] = outcome.detail;
  record["hack_pattern"] = text_or_null(outcome.hack_pattern);
  record["failed_family"] = text_or_null(outcome.failed_family);
  record["flags"] = outcome.flags;
  record["evaluator"] = {{"exit_code", outcome.exit.exit_code ? json(*outcome.exit.exit_code) : json(nullptr)},
                         {"signal", outcome.exit.term_signal ? json(*outcome.exit.term_signal) : json(nullptr)},
                         {"timed_out", outcome.exit.timed_out},
                         {"exit", outcome.worker_exit},
                         {"seconds", outcome.exit.seconds},
                         {"kbvd_evaluation_id", nullptr}};
  record["evaluation"] = outcome.report.is_object() ? outcome.report : json(nullptr);
  return record;
}

json record_from_kbvd(const Candidate& candidate, const std::string& role, std::uint64_t epoch, const json& evaluation) {
  json record = base_record(candidate, role, epoch, "kbvd");
  const json report = evaluation.contains("report") && evaluation["report"].is_object() ? evaluation["report"] : json(nullptr);
  const auto text = [](const json& from, const char* key) -> json {
    return from.is_object() && from.contains(key) && from[key].is_string() ? from[key] : json(nullptr);
  };
  record["verdict"] = text(evaluation, "verdict").is_null() ? json("crash") : text(evaluation, "verdict");
  record["detail"] = text(evaluation, "detail").is_null() ? json("") : text(evaluation, "detail");
  record["hack_pattern"] = text(report, "hack_pattern");
  record["failed_family"] = text(report, "failed_family");
  record["flags"] = report.is_object() && report.contains("flags") && report["flags"].is_array() ? report["flags"] : json::array();
  record["evaluator"] = {{"exit_code", evaluation.value("exit_code", json(nullptr))},
                         {"signal", evaluation.value("term_signal", json(nullptr))},
                         {"timed_out", evaluation.value("worker_exit", json("")) == "timeout"},
                         {"exit", evaluation.value("worker_exit", json(nullptr))},
                         {"seconds", evaluation.value("evaluator_seconds", json(nullptr))},
                         {"kbvd_evaluation_id", evaluation.value("id", json(nullptr))}};
  if (evaluation.contains("finished_at") && evaluation["finished_at"].is_number()) record["finished_at"] = evaluation["finished_at"];
  record["evaluation"] = report;
  return record;
}

}  // namespace kbv::sweep
