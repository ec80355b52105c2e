// sweep/run_context.hpp — what a runner (standalone or kbvd) is handed: the evaluations still
// without a verdict, the limits it must keep, and where each finished evaluation goes.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/issue.hpp"
#include "sweep/plan.hpp"

namespace kbv::sweep {

struct RunContext {
  std::uint64_t epoch = 0;
  std::vector<const PlannedEvaluation*> todo;  // in plan order (grouped by problem)
  std::optional<std::chrono::steady_clock::time_point> deadline;  // wall-clock budget
  std::int64_t max_evaluations = 0;            // evaluations budget; 0: none
  const std::atomic<bool>* stop = nullptr;     // set by SIGINT/SIGTERM
  // Called once per finished evaluation with its result record (result_record.hpp).
  std::function<void(const PlannedEvaluation&, const nlohmann::json& record)> on_record;
  // Called for a message the user must see now (an issue met while running).
  std::function<void(const std::string&)> on_note;
};

struct RunResult {
  std::int64_t started = 0;     // evaluations this run caused (not counting verdicts it reused)
  std::string stopped_because;  // empty: every evaluation in `todo` got a verdict
  Issues issues;                // input left out while running (kbvd refused a file, …)
};

// Why a run stops early, as the report and the exit status say it.
inline constexpr const char* kStoppedWallBudget = "wall-clock budget (budget.wall_s) reached";
inline constexpr const char* kStoppedEvaluationBudget = "evaluation budget (budget.evaluations) reached";
inline constexpr const char* kStoppedSignal = "stopped by a signal";

}  // namespace kbv::sweep
