// daemon/sweep/plan.cpp — plan a sweep: current candidates, re-verification, shards, plan id.
#include "sweep/plan.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "client/control_client.hpp"
#include "identity/sha256.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/secret_key.hpp"
#include "sweep/result_record.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// What the window of earlier epochs says about one key.
struct History {
  std::uint64_t latest_epoch = 0;
  std::string latest_verdict;
  std::optional<json> passing_record;  // the newest record of a pass in the window
};

// Records of the window that cannot be used (record_check.hpp) are named in `issues` and left
// out: a damaged record of an earlier epoch must not stop this sweep.
std::map<std::string, History> history_of(const SweepFolder& folder, std::uint64_t epoch, int window, std::vector<Issue>& issues) {
  std::map<std::string, History> history;
  if (window <= 0) return history;
  const std::uint64_t first = epoch >= static_cast<std::uint64_t>(window) ? epoch - static_cast<std::uint64_t>(window) : 0;
  for (const auto past : folder.epochs()) {
    if (past < first || past >= epoch) continue;
    std::vector<SweepFolder::UnusableRecord> unusable;
    const auto records = folder.results(past, &unusable);
    for (const auto& bad : unusable)
      issues.push_back({bad.path, "(file)", bad.why + "; left out of re-verification",
                        "remove it, or run the sweep of epoch " + std::to_string(past) + " again to evaluate that candidate anew"});
    for (const auto& [key, record] : records) {
      auto& h = history[key];
      const auto verdict = record.value("verdict", "");
      if (past >= h.latest_epoch) {
        h.latest_epoch = past;
        h.latest_verdict = verdict;
      }
      if (verdict == "pass") h.passing_record = record;
    }
  }
  return history;
}

std::string utc_now() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()));
}

}  // namespace

json PlannedEvaluation::to_json() const {
  return {{"key", key()},
          {"candidate", candidate.to_json()},
          {"role", role},
          {"prior_epoch", prior_epoch ? json(*prior_epoch) : json(nullptr)},
          {"prior_verdict", prior_verdict},
          {"shard", shard}};
}

PlannedEvaluation PlannedEvaluation::from_json(const json& j) {
  PlannedEvaluation p;
  p.candidate = Candidate::from_json(j.value("candidate", json::object()));
  p.role = j.value("role", kRoleCurrent);
  if (j.contains("prior_epoch") && j["prior_epoch"].is_number_unsigned()) p.prior_epoch = j["prior_epoch"].get<std::uint64_t>();
  p.prior_verdict = j.value("prior_verdict", "");
  p.shard = j.value("shard", 1);
  return p;
}

std::vector<const PlannedEvaluation*> Plan::shard_items(int shard) const {
  std::vector<const PlannedEvaluation*> out;
  for (const auto& item : items)
    if (shard_count <= 1 || item.shard == shard) out.push_back(&item);
  return out;
}

json Plan::to_json() const {
  json items_json = json::array();
  for (const auto& item : items) items_json.push_back(item.to_json());
  json issues_json = json::array();
  for (const auto& issue : issues) issues_json.push_back(issue.to_json());
  return {{"schema", kPlanSchema},   {"schema_version", kPlanSchemaVersion},
          {"sweep", sweep_name},     {"mode", mode},
          {"epoch", epoch},          {"reverify_epochs", reverify_epochs},
          {"shard_count", shard_count}, {"plan_id", plan_id},
          {"key_id", key_id},        {"created_at", created_at},
          {"kbv_version", KBV_VERSION},
          {"filtered_out", filtered_out}, {"duplicates", duplicates},
          {"issues", issues_json},   {"items", items_json}};
}

Plan Plan::from_json(const json& j) {
  if (j.value("schema", "") != kPlanSchema) throw std::runtime_error("not a sweep plan (schema is not kbv.sweep.plan)");
  Plan plan;
  plan.sweep_name = j.value("sweep", "");
  plan.mode = j.value("mode", "");
  plan.epoch = j.value("epoch", std::uint64_t{0});
  plan.reverify_epochs = j.value("reverify_epochs", 0);
  plan.shard_count = j.value("shard_count", 1);
  plan.plan_id = j.value("plan_id", "");
  plan.key_id = j.value("key_id", "");
  plan.created_at = j.value("created_at", "");
  plan.filtered_out = j.value("filtered_out", 0);
  plan.duplicates = j.value("duplicates", 0);
  for (const auto& issue : j.value("issues", json::array())) plan.issues.push_back(Issue::from_json(issue));
  for (const auto& item : j.value("items", json::array())) plan.items.push_back(PlannedEvaluation::from_json(item));
  return plan;
}

Plan make_plan(const PlanRequest& request, Discovery discovery) {
  const SweepConfig& config = *request.config;
  Plan plan;
  plan.sweep_name = config.name;
  plan.mode = std::string(mode_name(config.mode));
  plan.epoch = request.epoch;
  plan.reverify_epochs = config.reverify_epochs;
  plan.shard_count = request.shard_count;
  plan.key_id = request.key_id;
  plan.created_at = utc_now();
  plan.issues = std::move(discovery.issues);
  plan.filtered_out = discovery.filtered_out;
  plan.duplicates = discovery.duplicates;

  const auto history = history_of(*request.folder, request.epoch, config.reverify_epochs, plan.issues);
  std::set<std::string> planned;
  for (auto& candidate : discovery.candidates) {
    PlannedEvaluation item;
    item.candidate = std::move(candidate);
    item.role = kRoleCurrent;
    planned.insert(item.key());
    plan.items.push_back(std::move(item));
  }
  // Re-verification: every key that passed in the window and is not found again this time. Found
  // again also means its bytes are planned with their problem only declared, or, for a key whose
  // problem was declared, under any problem (discovery's rule: candidate_discovery.cpp).
  std::multimap<std::string, std::string> planned_problems;  // sha256 -> problem ("" declared)
  for (const auto& item : plan.items) planned_problems.emplace(item.candidate.sha256, item.candidate.problem);
  const auto found_again = [&](const Candidate& past) {
    for (auto [at, end] = planned_problems.equal_range(past.sha256); at != end; ++at)
      if (at->second == past.problem || at->second.empty() || past.problem.empty()) return true;
    return false;
  };
  for (const auto& [key, h] : history) {
    if (!h.passing_record || planned.count(key)) continue;
    Candidate candidate = Candidate::from_json(h.passing_record->value("candidate", json::object()));
    if (found_again(candidate)) continue;
    candidate.source = "history";
    if (!candidate.problem.empty() && request.catalog->contains(candidate.problem)) candidate.level = request.catalog->get(candidate.problem).level;
    if (!filters_admit(config.filters, candidate)) {
      ++plan.filtered_out;
      continue;
    }
    std::error_code error;
    const bool present = fs::is_regular_file(candidate.path, error) && control::file_sha256(candidate.path) == candidate.sha256;
    if (!present && config.mode == Mode::standalone) {
      plan.issues.push_back({candidate.path.string(), "(file)",
                             fmt::format("passed in epoch {} but is gone or changed, so it cannot be re-verified", h.latest_epoch),
                             "put the candidate back at that path, or run the sweep through kbvd (which keeps a copy of every candidate)"});
      continue;
    }
    if (!present) candidate.path.clear();  // kbvd evaluates its own copy, by sha256
    PlannedEvaluation item;
    item.candidate = std::move(candidate);
    item.role = kRoleReverify;
    planned.insert(item.key());
    plan.items.push_back(std::move(item));
  }
  for (auto& item : plan.items)
    if (const auto h = history.find(item.key()); h != history.end()) {
      item.prior_epoch = h->second.latest_epoch;
      item.prior_verdict = h->second.latest_verdict;
    }
  std::sort(plan.items.begin(), plan.items.end(), [](const PlannedEvaluation& a, const PlannedEvaluation& b) {
    return std::tie(a.candidate.problem, a.candidate.sha256) < std::tie(b.candidate.problem, b.candidate.sha256);
  });
  std::vector<std::string> problems;
  for (const auto& item : plan.items) problems.push_back(item.candidate.problem);
  const auto shards = assign_shards(problems, request.shard_count);
  for (std::size_t i = 0; i < plan.items.size(); ++i) plan.items[i].shard = shards[i];

  kbvd::Sha256 id;
  const auto header = fmt::format("{}\n{}\n{}\n", config.name, request.epoch, request.shard_count);
  id.update(header.data(), header.size());
  for (const auto& item : plan.items) {
    const auto line = item.key() + " " + item.role + "\n";
    id.update(line.data(), line.size());
  }
  plan.plan_id = id.hex().substr(0, 16);
  return plan;
}

fs::path plan_path(const SweepFolder& folder, const Plan& plan) { return folder.plans_dir(plan.epoch) / (plan.plan_id + ".json"); }

fs::path shard_status_path(const SweepFolder& folder, const Plan& plan, const ShardSpec& shard) {
  return folder.plans_dir(plan.epoch) / fmt::format("{}.shard-{}.json", plan.plan_id, shard.name());
}

std::optional<Plan> load_latest_plan(const SweepFolder& folder, std::uint64_t epoch, std::vector<DamagedPlan>* damaged) {
  std::optional<Plan> latest;
  std::error_code error;
  const auto dir = folder.plans_dir(epoch);
  if (!fs::is_directory(dir, error)) return latest;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const auto name = entry.path().filename().string();
    if (name.starts_with(".") || entry.path().extension() != ".json" || name.find(".shard-") != std::string::npos) continue;
    try {
      Plan plan = Plan::from_json(read_json_file(entry.path()));
      if (!latest || std::tie(plan.created_at, plan.plan_id) > std::tie(latest->created_at, latest->plan_id)) latest = std::move(plan);
    } catch (const std::exception& e) {
      if (damaged) damaged->push_back({entry.path(), e.what()});
    }
  }
  return latest;
}

std::string secret_key_id(const fs::path& key_file) {
  const auto key = inputs::SecretKey::load(key_file);
  return fmt::format("{:016x}", inputs::keyed_u64(key, "kbv public key id"));
}

}  // namespace kbv::sweep
