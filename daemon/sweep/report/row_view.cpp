// daemon/sweep/report/row_view.cpp — read a result record into a report row.
#include "sweep/report/row_view.hpp"

#include <algorithm>
#include <cmath>

#include "client/json_dump.hpp"

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
    out.emplace_back(key.substr(3), value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt);
  }
  return out;
}

namespace {

// Above any speedup a real kernel earns against kbv's baselines (the largest in the field's
// papers are in the thousands, against broken baselines).
constexpr double kMostPlausibleSpeedup = 1e6;

std::optional<std::string> figure_damage(const json& object, const std::string& where, double most) {
  if (object.is_null()) return std::nullopt;
  if (!object.is_number()) return where + " is " + std::string(object.type_name()) + ", not a number";
  const double value = object.get<double>();
  if (!std::isfinite(value) || value < 0 || value > most) return where + " is " + control::json_dump(object) + ", outside 0 to " + control::json_dump(json(most));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> record_damage(const json& record) {
  if (!record.is_object()) return "the record is not an object";
  if (record.contains("verdict") && !record["verdict"].is_string()) return "verdict is not text";
  if (!record.contains("evaluation") || record["evaluation"].is_null()) return std::nullopt;
  const json& evaluation = record["evaluation"];
  if (!evaluation.is_object()) return "evaluation is " + std::string(evaluation.type_name()) + ", not an evaluation report";
  if (!evaluation.contains("verdict") || !evaluation["verdict"].is_string()) return "evaluation.verdict is missing or not text";
  if (evaluation.contains("speedup")) {
    if (!evaluation["speedup"].is_object() && !evaluation["speedup"].is_null()) return "evaluation.speedup is not an object";
    if (evaluation["speedup"].is_object())
      for (const auto& [key, value] : evaluation["speedup"].items())
        if (key.starts_with("vs_"))
          if (auto damage = figure_damage(value, "evaluation.speedup." + key, kMostPlausibleSpeedup)) return damage;
  }
  for (const auto& path : {std::vector<std::string>{"memory", "ratio"}, std::vector<std::string>{"wall_s"}}) {
    const json* at = &evaluation;
    for (const auto& step : path) at = at->is_object() && at->contains(step) ? &(*at)[step] : nullptr;
    if (at == nullptr) continue;
    if (auto damage = figure_damage(*at, "evaluation." + path.front() + (path.size() > 1 ? "." + path.back() : ""), kMostPlausibleSpeedup)) return damage;
  }
  return std::nullopt;
}

RowView view_row(const PlannedEvaluation& planned, std::uint64_t epoch, const std::optional<json>& record) {
  RowView row;
  row.key = planned.key();
  row.planned = planned;
  row.epoch = epoch;
  if (!record) return row;
  row.evaluated = true;
  row.via = text_at(*record, "via");
  const json evaluation = record->value("evaluation", json(nullptr));
  // The evaluator's own report decides where there is one; the record's copy otherwise (an
  // evaluator that died left none).
  const json& source = evaluation.is_object() ? evaluation : *record;
  row.verdict = text_at(source, "verdict");
  if (row.verdict.empty()) row.verdict = text_at(*record, "verdict");
  row.detail = text_at(source, "detail");
  if (row.detail.empty()) row.detail = text_at(*record, "detail");
  row.hack_pattern = text_at(source, "hack_pattern");
  row.failed_family = text_at(source, "failed_family");
  row.flags = strings_at(source, "flags");
  if (evaluation.is_object()) {
    if (const auto problem = evaluation.value("problem", json::object()); problem.is_object()) {
      if (const auto name = text_at(problem, "name"); !name.empty()) row.planned.candidate.problem = name;
      if (const auto level = number_at(problem, {"level"}); level && *level > 0) row.planned.candidate.level = static_cast<int>(*level);
    }
    row.speedups = speedups_of(evaluation);
    row.memory_ratio = number_at(evaluation, {"memory", "ratio"});
    row.candidate_median_s = number_at(evaluation, {"timing", "candidate", "median_s"});
    row.wall_s = number_at(evaluation, {"wall_s"});
  }
  return row;
}

}  // namespace kbv::sweep::report
