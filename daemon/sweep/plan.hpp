// sweep/plan.hpp — what one sweep of an epoch sets out to evaluate: the candidates found (role
// current) plus every candidate that passed in the last N epochs (role reverify), each with its
// latest verdict in that window (a pass that now fails is a regression), and its shard.
//
// Every shard of a sweep computes the same plan from the same sources and the same history
// (epochs before this one only), so the plan and its id agree across the tasks of a job array.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec/catalog.hpp"
#include "sweep/candidate.hpp"
#include "sweep/candidate_discovery.hpp"
#include "sweep/issue.hpp"
#include "sweep/shard.hpp"
#include "sweep/sweep_config.hpp"
#include "sweep/sweep_folder.hpp"

namespace kbv::sweep {

inline constexpr const char* kPlanSchema = "kbv.sweep.plan";
inline constexpr int kPlanSchemaVersion = 1;

struct PlannedEvaluation {
  Candidate candidate;
  std::string role;                          // kRoleCurrent or kRoleReverify
  std::optional<std::uint64_t> prior_epoch;  // latest epoch of the window with a verdict for this key
  std::string prior_verdict;                 // that verdict ("" when none)
  int shard = 1;

  std::string key() const { return candidate.key(); }
  nlohmann::json to_json() const;
  static PlannedEvaluation from_json(const nlohmann::json& json);
};

struct Plan {
  std::string sweep_name;
  std::string mode;  // kbvd or standalone
  std::uint64_t epoch = 0;
  int reverify_epochs = 0;
  int shard_count = 1;
  std::string plan_id;   // hash of epoch, shard count and the planned keys
  std::string key_id;    // the secret key's public id when the sweep read the key ("" under kbvd)
  std::string created_at;
  std::vector<PlannedEvaluation> items;  // grouped by problem, then by key
  Issues issues;         // input left out while planning
  int filtered_out = 0, duplicates = 0;

  std::vector<const PlannedEvaluation*> shard_items(int shard) const;
  nlohmann::json to_json() const;
  static Plan from_json(const nlohmann::json& json);
};

struct PlanRequest {
  const SweepConfig* config = nullptr;
  const ProblemCatalog* catalog = nullptr;
  const SweepFolder* folder = nullptr;
  std::uint64_t epoch = 0;
  int shard_count = 1;
  std::string key_id;
};

// Plans the sweep from what discovery found and the results of earlier epochs in the folder.
Plan make_plan(const PlanRequest& request, Discovery discovery);

// The plan file and a shard's status file in an epoch's plans/ folder.
std::filesystem::path plan_path(const SweepFolder& folder, const Plan& plan);
std::filesystem::path shard_status_path(const SweepFolder& folder, const Plan& plan, const ShardSpec& shard);

// A plan file that cannot be read, and why.
struct DamagedPlan {
  std::filesystem::path file;
  std::string error;
};

// The newest readable plan of an epoch (by creation time), or nullopt when the epoch has none.
// Plan files that cannot be read go into `damaged` (when given): one of them may have been the
// latest, so a caller must say so rather than report an older plan as if it were.
std::optional<Plan> load_latest_plan(const SweepFolder& folder, std::uint64_t epoch, std::vector<DamagedPlan>* damaged = nullptr);

// A public, stable id of the secret key (a keyed hash: it reveals nothing of the key), so a
// report can say which key an epoch's families came from.
std::string secret_key_id(const std::filesystem::path& key_file);

}  // namespace kbv::sweep
