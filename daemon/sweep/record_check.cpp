// sweep/record_check.cpp — the checks a result record passes before it counts (record_check.hpp).
#include "sweep/record_check.hpp"

#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "client/json_dump.hpp"

namespace kbv::sweep {
namespace {

using nlohmann::json;

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

std::optional<std::string> candidate_damage(const json& record) {
  if (!record.contains("candidate")) return std::nullopt;
  const json& candidate = record["candidate"];
  if (!candidate.is_object()) return "candidate is " + std::string(candidate.type_name()) + ", not an object";
  for (const char* field : {"path", "sha256", "name", "model", "sample_id", "problem", "source"})
    if (candidate.contains(field) && !candidate[field].is_string()) return "candidate." + std::string(field) + " is not text";
  if (candidate.contains("level"))
    if (!candidate["level"].is_number_integer() || candidate["level"].get<double>() < 0 || candidate["level"].get<double>() > kHighestLevel)
      return "candidate.level is " + control::json_dump(candidate["level"]) + ", not a level from 0 to " + control::json_dump(json(kHighestLevel));
  if (candidate.contains("tags") && !candidate["tags"].is_array()) return "candidate.tags is not a list";
  return std::nullopt;
}

// A record's key names its file, except that a candidate planned as "<sha256>-declared" (its
// problem known only once evaluated) keeps its planned file name under the key it was given then,
// "<sha256>-<problem>".
bool same_evaluation(const std::string& recorded, const std::string& file_key) {
  constexpr std::string_view kDeclared = "-declared";
  if (recorded == file_key) return true;
  if (!file_key.ends_with(kDeclared)) return false;
  const std::string sha_and_dash = file_key.substr(0, file_key.size() - kDeclared.size() + 1);
  return recorded.size() > sha_and_dash.size() && recorded.starts_with(sha_and_dash);
}

}  // namespace

std::optional<std::string> record_damage(const json& record) {
  if (!record.is_object()) return "the record is not an object";
  if (!record.contains("verdict")) return "verdict is missing";
  if (!record["verdict"].is_string() || record["verdict"].get_ref<const std::string&>().empty()) return "verdict is not a word";
  if (auto damage = candidate_damage(record)) return damage;
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
  for (const auto& path : {std::vector<std::string>{"memory", "ratio"}, std::vector<std::string>{"wall_s"}, std::vector<std::string>{"problem", "level"}}) {
    const json* at = &evaluation;
    for (const auto& step : path) at = at != nullptr && at->is_object() && at->contains(step) ? &(*at)[step] : nullptr;
    if (at == nullptr) continue;
    // A memory ratio has no plausible top: a baseline of kbv kernels may hold a few hundred bytes
    // of workspace, against a candidate's megabytes (review: capping it re-evaluated such a record
    // on every sweep).
    const double most = path.back() == "level" ? kHighestLevel : path.front() == "memory" ? std::numeric_limits<double>::max() : kMostPlausibleSpeedup;
    if (auto damage = figure_damage(*at, "evaluation." + path.front() + (path.size() > 1 ? "." + path.back() : ""), most)) return damage;
  }
  return std::nullopt;
}

std::optional<std::string> record_damage(const json& record, const std::string& key, std::uint64_t epoch) {
  if (auto damage = record_damage(record)) return damage;
  if (record.contains("key") && (!record["key"].is_string() || !same_evaluation(record["key"].get_ref<const std::string&>(), key)))
    return "its key is " + control::json_dump(record["key"]) + ", but the file is named for " + key;
  if (record.contains("epoch") &&
      (!record["epoch"].is_number_integer() || record["epoch"].get<std::int64_t>() < 0 || record["epoch"].get<std::uint64_t>() != epoch))
    return "it says epoch " + control::json_dump(record["epoch"]) + ", but lies in epoch " + std::to_string(epoch) + "'s folder";
  return std::nullopt;
}

}  // namespace kbv::sweep
