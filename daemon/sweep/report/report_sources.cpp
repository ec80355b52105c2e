// daemon/sweep/report/report_sources.cpp — report inputs from a sweep folder or from kbvd.
#include "sweep/report/report_sources.hpp"

#include <fmt/format.h>

#include <set>

#include "client/control_client.hpp"
#include "client/json_dump.hpp"
#include "sweep/json_text.hpp"
#include "sweep/kbvd_runner.hpp"
#include "sweep/plan.hpp"
#include "sweep/record_check.hpp"
#include "sweep/result_record.hpp"

namespace kbv::sweep::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// kbvd's `results` answers at most this many candidates.
constexpr int kKbvdListLimit = control::kMaxResultsListed;

void add_shards(const SweepFolder& folder, const Plan& plan, const std::map<std::string, json>& records, ReportInput& input) {
  input.shard_count = plan.shard_count;
  if (plan.shard_count <= 1) return;
  std::set<std::string> key_ids;
  std::vector<std::string> wrong_epoch;
  for (int index = 1; index <= plan.shard_count; ++index) {
    ShardState state;
    state.index = index;
    for (const auto* item : plan.shard_items(index)) {
      ++state.planned;
      state.evaluated += records.count(item->key()) ? 1 : 0;
    }
    const auto status_path = shard_status_path(folder, plan, {index, plan.shard_count});
    std::error_code error;
    if (!fs::is_regular_file(status_path, error)) {
      state.state = "missing";
    } else {
      const auto status = read_json_file(status_path);
      if (status.contains("epoch") && status["epoch"].is_number_unsigned()) state.epoch = status["epoch"].get<std::uint64_t>();
      if (state.epoch != plan.epoch) wrong_epoch.push_back(fmt::format("shard {} says epoch {}", index, state.epoch ? std::to_string(*state.epoch) : "(none)"));
      state.host = json_text(status, "host");
      state.key_id = json_text(status, "key_id");
      state.kbv_version = json_text(status, "kbv_version");
      state.stopped_because = json_text(status, "stopped_because");
      state.state = state.evaluated == state.planned ? "complete" : "incomplete";
      key_ids.insert(state.key_id);
    }
    input.shards.push_back(state);
  }
  if (!wrong_epoch.empty()) {
    std::string listed;
    for (const auto& line : wrong_epoch) listed += (listed.empty() ? "" : ", ") + line;
    throw SourceError(fmt::format("{}: the shards of plan {} disagree on the epoch (the plan's is {}; {}), so their verdicts come from "
                                  "different hidden families; fix: give every task the same --epoch {} and run those shards again",
                                  folder.plans_dir(plan.epoch).string(), plan.plan_id, plan.epoch, listed, plan.epoch));
  }
  if (key_ids.size() > 1) {
    std::string listed;
    for (const auto& id : key_ids) listed += (listed.empty() ? "" : ", ") + (id.empty() ? std::string("(none)") : id);
    throw SourceError(fmt::format("{}: the shards of plan {} used different secret keys ({}), so their verdicts come from different hidden "
                                  "families; fix: give every task the same key file and run the shards again",
                                  folder.plans_dir(plan.epoch).string(), plan.plan_id, listed));
  }
}

// Every plan of an epoch is damaged: which files, and the fix.
std::string damaged_plans_error(const std::vector<DamagedPlan>& damaged, std::uint64_t epoch) {
  std::string listed;
  for (const auto& bad : damaged) listed += (listed.empty() ? "" : "; ") + bad.file.string() + ": " + bad.error;
  return fmt::format("no plan of epoch {} can be read ({}); fix: delete the damaged plan files and run kbv sweep again to plan anew", epoch, listed);
}

}  // namespace

std::uint64_t latest_planned_epoch(const SweepFolder& folder) {
  const auto epochs = folder.epochs();
  for (auto it = epochs.rbegin(); it != epochs.rend(); ++it) {
    std::vector<DamagedPlan> damaged;
    if (load_latest_plan(folder, *it, &damaged)) return *it;
    // The newest epoch's plans exist but none can be read: an older epoch is not what was asked.
    if (!damaged.empty()) throw SourceError(damaged_plans_error(damaged, *it));
  }
  throw SourceError(fmt::format("{}: no sweep has been planned here (no epoch-N/plans/*.json); fix: run kbv sweep with this output_dir first",
                                folder.root().string()));
}

ReportInput input_from_folder(const SweepFolder& folder, std::uint64_t epoch) {
  std::vector<DamagedPlan> damaged;
  const auto plan = load_latest_plan(folder, epoch, &damaged);
  if (!plan && !damaged.empty()) throw SourceError(damaged_plans_error(damaged, epoch));
  if (!plan)
    throw SourceError(fmt::format("{}: no sweep plan for epoch {}; fix: run kbv sweep for that epoch, or name another with --epoch",
                                  folder.plans_dir(epoch).string(), epoch));
  std::vector<SweepFolder::UnusableRecord> unusable;
  const auto records = folder.results(epoch, &unusable);
  ReportInput input;
  input.sweep_name = plan->sweep_name;
  input.mode = plan->mode;
  input.source = "sweep folder " + folder.root().string();
  input.epoch = epoch;
  input.plan_id = plan->plan_id;
  input.key_id = plan->key_id;
  input.reverify_epochs = plan->reverify_epochs;
  input.issues = plan->issues;
  for (const auto& bad : damaged)
    input.issues.push_back({bad.file.string(), "(file)",
                            "is a plan that cannot be read (" + bad.error + "); it may have been the latest, so this report, of plan " + plan->plan_id +
                                ", may leave out what it planned",
                            "delete it, or run the sweep again to plan anew"});
  for (const auto& bad : unusable)
    input.issues.push_back({bad.path, "(file)", bad.why + "; left out", "remove it; the next sweep evaluates that candidate again"});
  for (const auto& item : plan->items) {
    const auto found = records.find(item.key());
    input.rows.push_back(view_row(item, epoch, found == records.end() ? std::nullopt : std::optional<json>(found->second)));
  }
  add_shards(folder, *plan, records, input);
  return input;
}

ReportInput input_from_kbvd(const fs::path& socket, std::optional<std::uint64_t> epoch_wanted, int window) {
  const std::uint64_t epoch = epoch_wanted ? *epoch_wanted : kbvd_epoch(socket);
  ReportInput input;
  input.sweep_name = "kbvd";
  input.mode = "kbvd";
  input.source = "kbvd " + socket.string();
  input.epoch = epoch;
  input.reverify_epochs = window;
  const auto list = control::results_list(socket, kKbvdListLimit).value("results", json::array());
  if (list.size() >= static_cast<std::size_t>(kKbvdListLimit))
    input.issues.push_back({socket.string(), "results", fmt::format("kbvd lists at most {} candidates; older ones are left out", kKbvdListLimit),
                            "report per sweep instead (kbv report SWEEP_DIR)"});
  for (const auto& row : list) {
    const auto shown = control::results_show(socket, json_text(row, "sha256"));
    Candidate candidate;
    candidate.sha256 = json_text(row, "sha256");
    candidate.name = json_text(row, "name");
    candidate.model = json_text(row, "model");
    candidate.sample_id = json_text(row, "sample_id");
    candidate.problem = json_text(row, "problem");
    if (row.contains("tags") && row["tags"].is_array())
      for (const auto& tag : row["tags"])
        if (tag.is_string()) candidate.tags.push_back(tag.get<std::string>());
    candidate.source = "kbvd";
    PlannedEvaluation item;
    item.candidate = candidate;
    item.role = kRoleCurrent;
    std::optional<json> now;
    for (const auto& evaluation : shown.value("evaluations", json::array())) {
      if (json_text(evaluation, "state") != "done") continue;
      const auto e = evaluation.value("epoch", std::int64_t{-1});
      if (e == static_cast<std::int64_t>(epoch)) now = evaluation;
      else if (e >= 0 && static_cast<std::uint64_t>(e) < epoch && static_cast<std::uint64_t>(e) + static_cast<std::uint64_t>(window) >= epoch &&
               (!item.prior_epoch || static_cast<std::uint64_t>(e) >= *item.prior_epoch)) {
        item.prior_epoch = static_cast<std::uint64_t>(e);
        item.prior_verdict = json_text(evaluation, "verdict");
      }
    }
    const bool waiting = json_text(row, "state") == "queued" || json_text(row, "state") == "running";
    if (!now && !waiting) continue;  // not part of this epoch
    std::optional<json> record;
    if (now) record = record_from_kbvd(candidate, kRoleCurrent, epoch, *now);
    if (record)
      if (const auto damage = record_damage(*record)) {
        input.issues.push_back({socket.string(), "evaluation " + control::json_dump(now->value("id", json(nullptr))),
                                "of candidate " + candidate.sha256 + " cannot be trusted (" + *damage + "); left out",
                                "kbv requeue it, so that kbvd evaluates it again"});
        record.reset();
      }
    input.rows.push_back(view_row(item, epoch, record));
  }
  return input;
}

std::optional<std::string> previous_report_damage(const json& report) {
  if (!report.is_object()) return "it is not an object";
  if (report.value("schema", json(nullptr)) != kReportSchema) return std::string("its schema is not ") + kReportSchema;
  if (report.value("schema_version", json(nullptr)) != kReportSchemaVersion)
    return "its schema_version is " + control::json_dump(report.value("schema_version", json(nullptr))) + ", not " + std::to_string(kReportSchemaVersion);
  const json sweep = report.value("sweep", json(nullptr));
  if (!sweep.is_object() || !sweep.contains("epoch") || !sweep["epoch"].is_number_unsigned()) return "sweep.epoch is missing or not a count";
  if (sweep.contains("plan_id") && !sweep["plan_id"].is_string() && !sweep["plan_id"].is_null()) return "sweep.plan_id is not text";
  const json candidates = report.value("candidates", json(nullptr));
  if (!candidates.is_array()) return "candidates is not a list";
  for (const auto& row : candidates) {
    if (!row.is_object() || !row.contains("key") || !row["key"].is_string()) return "a row of candidates has no text key";
    for (const char* field : {"status", "verdict"})
      if (row.contains(field) && !row[field].is_string() && !row[field].is_null()) return "candidates[" + row["key"].get<std::string>() + "]." + field + " is not text";
  }
  if (report.contains("generated_at") && !report["generated_at"].is_string()) return "generated_at is not text";
  return std::nullopt;
}

std::optional<json> previous_report(const SweepFolder& folder, std::uint64_t epoch, const std::string& plan_id, std::string* run, Issues* issues) {
  std::optional<json> best;
  std::uint64_t best_epoch = 0;
  std::string best_run;
  const auto runs = folder.runs();
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    json report;
    try {
      report = read_json_file(*it / "report.json");
    } catch (const std::exception&) {
      continue;  // a run folder without a readable report is not a sweep to compare with (a report being written)
    }
    if (const auto damage = previous_report_damage(report)) {
      if (issues)
        issues->push_back({(*it / "report.json").string(), "(file)", "is not a report to compare with (" + *damage + "); skipped",
                           "remove that run folder, or repair its report.json with kbv report --epoch E"});
      continue;
    }
    const auto& sweep = report["sweep"];
    const std::uint64_t e = sweep["epoch"].get<std::uint64_t>();
    if (e > epoch || (e == epoch && sweep.value("plan_id", json("")) == json(plan_id))) continue;
    if (best && e <= best_epoch) continue;  // runs are visited newest first: keep the newest of the latest epoch
    best = std::move(report);
    best_epoch = e;
    best_run = it->filename().string();
  }
  if (best && run) *run = best_run;
  return best;
}

bool is_newest_epoch(const SweepFolder& folder, std::uint64_t epoch) {
  const auto epochs = folder.epochs();
  return epochs.empty() || epoch >= epochs.back();
}

}  // namespace kbv::sweep::report
