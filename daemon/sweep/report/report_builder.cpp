// daemon/sweep/report/report_builder.cpp — every figure of report.json, from the rows.
#include "sweep/report/report_builder.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

namespace kbv::sweep::report {
namespace {

using nlohmann::json;

constexpr const char* kPassesPublicOnlyFlag = "passes_public_inputs_only";

json number_or_null(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? json(*value) : json(nullptr);
}

std::optional<double> ratio(std::size_t part, std::size_t whole) {
  if (whole == 0) return std::nullopt;
  return static_cast<double>(part) / static_cast<double>(whole);
}

// exp(mean(log x)) over positive values; nullopt for none.
std::optional<double> geomean(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  double sum = 0;
  for (const double v : values) sum += std::log(v);
  return std::exp(sum / static_cast<double>(values.size()));
}

// Speedups of the passing rows that have a figure against `baseline` (positive and finite: a
// speedup is a ratio of two medians).
std::vector<double> passing_speedups(const std::vector<const RowView*>& rows, const std::string& baseline) {
  std::vector<double> out;
  for (const RowView* row : rows)
    if (row->passed())
      if (const auto s = row->speedup(baseline); s && std::isfinite(*s) && *s > 0) out.push_back(*s);
  return out;
}

// Baselines with at least one figure, in the preferred order; and those named without any.
std::pair<std::vector<std::string>, std::vector<std::string>> baselines_of(const std::vector<RowView>& rows) {
  std::set<std::string> named, with_figure;
  for (const auto& row : rows)
    for (const auto& [name, value] : row.speedups) {
      named.insert(name);
      if (value) with_figure.insert(name);
    }
  std::vector<std::string> ordered;
  for (const auto& name : preferred_baselines())
    if (named.count(name)) ordered.push_back(name);
  for (const auto& name : named)
    if (std::find(ordered.begin(), ordered.end(), name) == ordered.end()) ordered.push_back(name);
  std::pair<std::vector<std::string>, std::vector<std::string>> out;
  for (const auto& name : ordered) (with_figure.count(name) ? out.first : out.second).push_back(name);
  return out;
}

json p_grid() {
  json grid = json::array();
  for (int i = 0; i <= kFastPSteps; ++i) grid.push_back(fast_p_point(i));
  return grid;
}

// Figures of one group of rows (a model, or all of them).
json group_figures(const std::vector<const RowView*>& rows, const std::vector<std::string>& baselines) {
  std::size_t evaluated = 0, passed = 0, public_only = 0, regressions = 0;
  std::map<std::string, int> verdicts, hacks, flags;
  std::vector<double> memory;
  for (const RowView* row : rows) {
    if (!row->evaluated) continue;
    ++evaluated;
    ++verdicts[row->verdict];
    if (row->passed()) {
      ++passed;
      if (row->memory_ratio && std::isfinite(*row->memory_ratio) && *row->memory_ratio > 0) memory.push_back(*row->memory_ratio);
    }
    if (row->verdict == "hack_suspected") ++hacks[row->hack_pattern.empty() ? "unnamed" : row->hack_pattern];
    for (const auto& flag : row->flags) ++flags[flag];
    if (row->has_flag(kPassesPublicOnlyFlag)) ++public_only;
    if (row->regression()) ++regressions;
  }
  json speedup = json::object();
  for (const auto& baseline : baselines) {
    const auto speedups = passing_speedups(rows, baseline);
    // fast_p counts a pass without a figure against this baseline (a problem with no PyTorch
    // calibration) as not faster; so it is given only when every pass has one, else null with why.
    const bool covered = speedups.size() == passed;
    json fast_p = json::array();
    for (int i = 0; i <= kFastPSteps; ++i) {
      const double p = fast_p_point(i);
      const auto faster = static_cast<std::size_t>(std::count_if(speedups.begin(), speedups.end(), [&](double s) { return s > p; }));
      fast_p.push_back(covered ? number_or_null(ratio(faster, evaluated)) : json(nullptr));
    }
    speedup[baseline] = {{"timed_passes", speedups.size()},
                         {"coverage", number_or_null(ratio(speedups.size(), passed))},
                         {"geomean", number_or_null(geomean(speedups))},
                         {"fast_p", fast_p},
                         {"fast_p_withheld", covered ? json(nullptr)
                                                     : json(fmt::format("{} of {} passes have no speedup against {} (no calibration for their problem): "
                                                                        "fast_p would count them as not faster",
                                                                        passed - speedups.size(), passed, baseline))}};
  }
  return {{"planned", rows.size()},
          {"evaluated", evaluated},
          {"passed", passed},
          {"correctness_rate", number_or_null(ratio(passed, evaluated))},
          {"verdicts", verdicts},
          {"speedup", speedup},
          {"memory_ratio", {{"count", memory.size()},
                            {"geomean", number_or_null(geomean(memory))},
                            {"max", memory.empty() ? json(nullptr) : json(*std::max_element(memory.begin(), memory.end()))}}},
          {"hacks", hacks},
          {"flags", flags},
          {"passes_public_inputs_only", public_only},
          {"regressions", regressions}};
}

json row_json(const RowView& row) {
  const auto& c = row.planned.candidate;
  json speedups = json::object();
  for (const auto& [name, value] : row.speedups) speedups[name] = number_or_null(value);
  return {{"key", row.key},
          {"sha256", c.sha256},
          {"name", c.name},
          {"path", c.path.string()},
          {"model", c.model},
          {"sample_id", c.sample_id},
          {"problem", c.problem},
          {"level", c.level},
          {"tags", c.tags},
          {"role", row.planned.role},
          {"shard", row.planned.shard},
          {"status", row.evaluated ? "evaluated" : "not_evaluated"},
          {"verdict", row.evaluated ? json(row.verdict) : json(nullptr)},
          {"detail", row.detail},
          {"hack_pattern", row.hack_pattern.empty() ? json(nullptr) : json(row.hack_pattern)},
          {"failed_family", row.failed_family.empty() ? json(nullptr) : json(row.failed_family)},
          {"flags", row.flags},
          {"speedup", speedups},
          {"memory_ratio", number_or_null(row.memory_ratio)},
          {"candidate_median_s", number_or_null(row.candidate_median_s)},
          {"wall_s", number_or_null(row.wall_s)},
          {"prior_epoch", row.planned.prior_epoch ? json(*row.planned.prior_epoch) : json(nullptr)},
          {"prior_verdict", row.planned.prior_verdict.empty() ? json(nullptr) : json(row.planned.prior_verdict)},
          {"regression", row.regression()},
          {"via", row.via}};
}

// The short form of a row that lists in the report name, plus `extra` fields.
json brief(const RowView& row, const json& extra = json::object()) {
  const auto& c = row.planned.candidate;
  json out = {{"key", row.key}, {"name", c.name}, {"model", c.model}, {"problem", c.problem}, {"verdict", row.evaluated ? json(row.verdict) : json(nullptr)}};
  out.update(extra);
  return out;
}

json problem_cells(const std::vector<RowView>& rows, const std::vector<std::string>& models, const std::vector<std::string>& baselines) {
  std::map<std::string, std::map<std::string, std::vector<const RowView*>>> by_problem;
  std::map<std::string, int> level_of;
  for (const auto& row : rows) {
    const auto& c = row.planned.candidate;
    const auto problem = c.problem.empty() ? std::string("(declared)") : c.problem;
    by_problem[problem][c.model].push_back(&row);
    level_of[problem] = std::max(level_of[problem], c.level);
  }
  json problems = json::array();
  for (const auto& [problem, by_model] : by_problem) {
    json cells = json::array();
    for (const auto& model : models) {
      const auto found = by_model.find(model);
      if (found == by_model.end()) continue;
      std::size_t evaluated = 0, passed = 0;
      for (const RowView* row : found->second) {
        evaluated += row->evaluated ? 1 : 0;
        passed += row->passed() ? 1 : 0;
      }
      json speedup = json::object();
      for (const auto& baseline : baselines) speedup[baseline] = number_or_null(geomean(passing_speedups(found->second, baseline)));
      cells.push_back({{"model", model}, {"planned", found->second.size()}, {"evaluated", evaluated}, {"passed", passed}, {"geomean_speedup", speedup}});
    }
    problems.push_back({{"problem", problem}, {"level", level_of[problem]}, {"models", cells}});
  }
  return problems;
}

json comparison(const ReportInput& input) {
  if (!input.previous) return nullptr;
  const json& previous = *input.previous;
  std::map<std::string, json> before;
  for (const auto& row : previous.value("candidates", json::array()))
    if (row.is_object() && row.value("status", "") == "evaluated") before[row.value("key", "")] = row;
  const auto previous_epoch = previous.value("sweep", json::object()).value("epoch", json(nullptr));
  const bool rotated = !previous_epoch.is_number() || previous_epoch.get<std::uint64_t>() != input.epoch;
  json new_passes = json::array(), regressions = json::array(), changes = json::array();
  std::map<std::pair<std::string, std::string>, int> transitions;
  std::size_t in_both = 0, only_now = 0;
  for (const auto& row : input.rows) {
    if (!row.evaluated) continue;
    const auto found = before.find(row.key);
    const std::string was = found == before.end() ? "" : found->second.value("verdict", "");
    if (found == before.end()) ++only_now;
    else {
      ++in_both;
      ++transitions[{was, row.verdict}];
    }
    if (row.verdict == "pass" && was != "pass") new_passes.push_back(brief(row, {{"previous_verdict", was.empty() ? json(nullptr) : json(was)}}));
    if (was == "pass" && row.verdict != "pass" && rotated) regressions.push_back(brief(row, {{"previous_verdict", was}, {"detail", row.detail}}));
    if (!was.empty() && was != row.verdict) changes.push_back(brief(row, {{"previous_verdict", was}}));
  }
  json transition_list = json::array();
  for (const auto& [pair, count] : transitions) transition_list.push_back({{"from", pair.first}, {"to", pair.second}, {"count", count}});
  std::size_t only_before = 0;
  std::set<std::string> now_keys;
  for (const auto& row : input.rows)
    if (row.evaluated) now_keys.insert(row.key);
  for (const auto& [key, row] : before) only_before += now_keys.count(key) ? 0 : 1;
  return {{"previous_run", input.previous_run},
          {"previous_epoch", previous_epoch},
          {"previous_generated_at", previous.value("generated_at", json(nullptr))},
          {"epoch_rotated", rotated},
          {"counts", {{"in_both", in_both}, {"only_now", only_now}, {"only_previous", only_before},
                      {"new_passes", new_passes.size()}, {"regressions_after_rotation", regressions.size()}, {"verdict_changes", changes.size()}}},
          {"new_passes", new_passes},
          {"regressions_after_rotation", regressions},
          {"verdict_changes", changes},
          {"transitions", transition_list}};
}

json shards_json(const ReportInput& input) {
  json complete = json::array(), incomplete = json::array(), missing = json::array(), states = json::array();
  for (const auto& shard : input.shards) {
    (shard.state == "complete" ? complete : shard.state == "missing" ? missing : incomplete).push_back(shard.index);
    states.push_back({{"index", shard.index}, {"state", shard.state}, {"planned", shard.planned}, {"evaluated", shard.evaluated},
                      {"epoch", shard.epoch ? json(*shard.epoch) : json(nullptr)}, {"host", shard.host}, {"key_id", shard.key_id}, {"kbv_version", shard.kbv_version},
                      {"stopped_because", shard.stopped_because.empty() ? json(nullptr) : json(shard.stopped_because)}});
  }
  return {{"count", input.shard_count}, {"complete", complete}, {"incomplete", incomplete}, {"missing", missing}, {"shards", states}};
}

}  // namespace

double fast_p_point(int step) { return kFastPMax * static_cast<double>(step) / static_cast<double>(kFastPSteps); }

const std::vector<std::string>& preferred_baselines() {
  // kbv's own baselines are library_* (schema 1's tf32/fp32 are read as these: speedups_of).
  static const std::vector<std::string> names = {"eager_tf32", "library_tf32", "eager_fp32", "library_fp32", "compiled_tf32"};
  return names;
}

std::string model_label(const std::string& model) { return model.empty() ? "(no model)" : model; }

json build_report(const ReportInput& input) {
  const auto [baselines, without_figures] = baselines_of(input.rows);
  std::set<std::string> model_set;
  for (const auto& row : input.rows) model_set.insert(row.planned.candidate.model);
  const std::vector<std::string> models(model_set.begin(), model_set.end());

  std::vector<const RowView*> all;
  std::map<std::string, std::vector<const RowView*>> by_model;
  std::map<std::pair<int, std::string>, std::vector<const RowView*>> by_level_and_model;
  for (const auto& row : input.rows) {
    all.push_back(&row);
    by_model[row.planned.candidate.model].push_back(&row);
    by_level_and_model[{row.planned.candidate.level, row.planned.candidate.model}].push_back(&row);
  }
  json models_json = json::array();
  for (const auto& model : models) {
    json figures = group_figures(by_model[model], baselines);
    figures["model"] = model;
    models_json.push_back(figures);
  }
  // Per KernelBench level and model (level 0: the problem is not known, e.g. a load error).
  json levels_json = json::array();
  for (const auto& [level_and_model, rows] : by_level_and_model) {
    json figures = group_figures(rows, baselines);
    figures["level"] = level_and_model.first;
    figures["model"] = level_and_model.second;
    levels_json.push_back(figures);
  }

  std::size_t evaluated = 0, regressions = 0, reverify_planned = 0, reverify_evaluated = 0, reverify_pass = 0;
  json regression_rows = json::array(), public_only_rows = json::array(), not_evaluated = json::array(), rows_json = json::array();
  for (const auto& row : input.rows) {
    rows_json.push_back(row_json(row));
    if (!row.evaluated) {
      not_evaluated.push_back(brief(row));
      continue;
    }
    ++evaluated;
    if (row.regression()) {
      ++regressions;
      regression_rows.push_back({{"key", row.key}, {"name", row.planned.candidate.name}, {"model", row.planned.candidate.model},
                                 {"problem", row.planned.candidate.problem}, {"role", row.planned.role},
                                 {"prior_epoch", row.planned.prior_epoch ? json(*row.planned.prior_epoch) : json(nullptr)},
                                 {"prior_verdict", row.planned.prior_verdict}, {"verdict", row.verdict},
                                 {"hack_pattern", row.hack_pattern.empty() ? json(nullptr) : json(row.hack_pattern)},
                                 {"failed_family", row.failed_family.empty() ? json(nullptr) : json(row.failed_family)}, {"detail", row.detail}});
    }
    if (row.has_flag(kPassesPublicOnlyFlag))
      public_only_rows.push_back(brief(row, {{"failed_family", row.failed_family.empty() ? json(nullptr) : json(row.failed_family)}}));
  }
  for (const auto& row : input.rows) {
    if (row.planned.role != "reverify") continue;
    ++reverify_planned;
    reverify_evaluated += row.evaluated ? 1 : 0;
    reverify_pass += row.passed() ? 1 : 0;
  }

  // Headline: fast_1 per model against the first baseline that has a figure for every pass
  // (eager TF32 once every problem passed has a PyTorch calibration), and the regressions. A
  // baseline covering some passes only would count the others as slower.
  const json totals = group_figures(all, baselines);
  std::optional<std::string> headline_baseline;
  for (const auto& baseline : baselines)
    if (!headline_baseline && totals["speedup"][baseline]["fast_p_withheld"].is_null()) headline_baseline = baseline;
  json headline = {{"baseline", headline_baseline ? json(*headline_baseline) : json(nullptr)}, {"regressions", regressions}};
  json fast_1 = json::object();
  for (const auto& model_json : models_json)
    fast_1[model_json["model"].get<std::string>()] = headline_baseline ? model_json["speedup"][*headline_baseline]["fast_p"][kFastPStepOfOne] : json(nullptr);
  headline["fast_1"] = fast_1;
  headline["baseline_note"] = baselines.empty()        ? "no evaluation reported a speedup"
                              : !headline_baseline     ? "no baseline has a speedup for every pass, so no fast_1 is headlined"
                              : *headline_baseline == preferred_baselines().front()
                                  ? "eager TF32 (PyTorch eager with TF32 on, KernelBench-Verified's baseline)"
                                  : "the first baseline with a speedup for every pass: eager TF32 lacks one for some passes or all";

  json issues = json::array();
  for (const auto& issue : input.issues) issues.push_back(issue.to_json());
  const bool complete = evaluated == input.rows.size();
  return {
      {"schema", kReportSchema},
      {"schema_version", kReportSchemaVersion},
      {"kbv_version", KBV_VERSION},
      {"generated_at", fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()))},
      {"sweep", {{"name", input.sweep_name}, {"mode", input.mode}, {"source", input.source}, {"epoch", input.epoch},
                 {"plan_id", input.plan_id}, {"key_id", input.key_id.empty() ? json(nullptr) : json(input.key_id)},
                 {"reverify_epochs", input.reverify_epochs}, {"run", input.run}}},
      {"completeness", {{"planned", input.rows.size()}, {"evaluated", evaluated}, {"not_evaluated", input.rows.size() - evaluated},
                        {"complete", complete},
                        {"stopped_because", input.stopped_because.empty() ? json(nullptr) : json(input.stopped_because)},
                        {"shards", shards_json(input)}}},
      {"baselines", baselines},
      {"baselines_without_figures", without_figures},
      {"p_grid", p_grid()},
      {"headline", headline},
      {"totals", totals},
      {"models", models_json},
      {"levels", levels_json},
      {"problems", problem_cells(input.rows, models, baselines)},
      {"public_hidden_gap", {{"flag", kPassesPublicOnlyFlag}, {"candidates", public_only_rows}}},
      {"regressions", regression_rows},
      {"reverification", {{"window_epochs", input.reverify_epochs}, {"planned", reverify_planned}, {"evaluated", reverify_evaluated},
                          {"still_pass", reverify_pass}, {"regressions", regressions}}},
      {"comparison", comparison(input)},
      {"not_evaluated", not_evaluated},
      {"issues", issues},
      {"candidates", rows_json},
  };
}

}  // namespace kbv::sweep::report
