// daemon/sweep/report/row_view.cpp — read a result record into a report row.
#include "sweep/report/row_view.hpp"

#include <algorithm>
#include <cmath>


namespace kbv::sweep::report {
namespace {

using nlohmann::json;

std::string text_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::optional<double> number_at(const json& j, std::initializer_list<const char*> path) {
  const json* node = &j;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return std::nullopt;
    node = &(*node)[key];
  }
  return node->is_number() ? std::optional<double>(node->get<double>()) : std::nullopt;
}

std::vector<std::string> strings_at(const json& j, const char* key) {
  std::vector<std::string> out;
  if (j.is_object() && j.contains(key) && j[key].is_array())
    for (const auto& item : j[key])
      if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

}  // namespace

std::optional<double> RowView::speedup(const std::string& baseline) const {
  for (const auto& [name, value] : speedups)
    if (name == baseline) return value;
  return std::nullopt;
}

bool RowView::has_flag(const std::string& flag) const { return std::find(flags.begin(), flags.end(), flag) != flags.end(); }

std::vector<std::pair<std::string, std::optional<double>>> speedups_of(const json& evaluation) {
  std::vector<std::pair<std::string, std::optional<double>>> out;
  if (!evaluation.is_object() || !evaluation.contains("speedup") || !evaluation["speedup"].is_object()) return out;
  for (const auto& [key, value] : evaluation["speedup"].items()) {
    if (!key.starts_with("vs_") || key.size() == 3) continue;
    std::string name = key.substr(3);
    // Result schema 1 (older kbvd stores) named kbv's own baselines tf32/fp32; schema 2 library_*.
    // One baseline, one name: else a sweep over both halves its fast_p between two columns.
    if (name == "tf32" || name == "fp32") name = "library_" + name;
    if (std::any_of(out.begin(), out.end(), [&](const auto& seen) { return seen.first == name; })) continue;
    out.emplace_back(std::move(name), value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt);
  }
  return out;
}

RowView view_row(const PlannedEvaluation& planned, std::uint64_t epoch, const std::optional<json>& record) {
  RowView row;
  row.key = planned.key();
  row.planned = planned;
  row.epoch = epoch;
  if (!record) return row;
  row.evaluated = true;
  row.via = text_at(*record, "via");
  // The record's verdict decides: it is kbvd's or the sweep's reading of the evaluator's exit and
  // report (an evaluator that printed "pass" and then exited 4 is a crash there). The evaluator's
  // report supplies detail and figures only when it says the same; an evaluator that died left none.
  row.verdict = text_at(*record, "verdict");
  const json evaluation = record->value("evaluation", json(nullptr));
  const bool report_agrees = evaluation.is_object() && text_at(evaluation, "verdict") == row.verdict;
  const json& source = report_agrees ? evaluation : *record;
  row.detail = text_at(source, "detail");
  if (row.detail.empty()) row.detail = text_at(*record, "detail");
  row.hack_pattern = text_at(source, "hack_pattern");
  row.failed_family = text_at(source, "failed_family");
  row.flags = strings_at(source, "flags");
  if (evaluation.is_object()) {
    if (const auto problem = evaluation.value("problem", json::object()); problem.is_object()) {
      if (const auto name = text_at(problem, "name"); !name.empty()) row.planned.candidate.problem = name;
      if (const auto level = number_at(problem, {"level"}); level && *level > 0 && *level <= kHighestLevel)
        row.planned.candidate.level = static_cast<int>(*level);
    }
  }
  if (report_agrees) {
    row.speedups = speedups_of(evaluation);
    row.memory_ratio = number_at(evaluation, {"memory", "ratio"});
    row.candidate_median_s = number_at(evaluation, {"timing", "candidate", "median_s"});
    row.wall_s = number_at(evaluation, {"wall_s"});
  }
  return row;
}

}  // namespace kbv::sweep::report
