// sweep/report/row_view.hpp — one row of a report (a candidate × problem of the plan) as the
// report reads it: the plan's view of the candidate plus, once evaluated, what the evaluator's
// JSON report says (verdict, flags, speedups against each baseline it names, memory).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/plan.hpp"

namespace kbv::sweep::report {

struct RowView {
  std::string key;            // the plan's key (stays "<sha256>-declared" once the problem is known)
  PlannedEvaluation planned;  // candidate (problem and level as evaluated, once known), role, prior verdict
  bool evaluated = false;     // a verdict exists for this epoch
  std::uint64_t epoch = 0;
  std::string verdict, detail, hack_pattern, failed_family, via;
  std::vector<std::string> flags;
  // Baseline name ("tf32" for speedup.vs_tf32, "eager_tf32" for speedup.vs_eager_tf32, …) and
  // the speedup over it; nullopt where the report names the baseline without a figure.
  std::vector<std::pair<std::string, std::optional<double>>> speedups;
  std::optional<double> memory_ratio, candidate_median_s, wall_s;  // wall_s: the evaluation's own wall time

  bool passed() const { return evaluated && verdict == "pass"; }
  // A pass in the re-verification window (the key's latest verdict there) that is not a pass now.
  bool regression() const { return evaluated && planned.prior_verdict == "pass" && verdict != "pass"; }
  std::optional<double> speedup(const std::string& baseline) const;
  bool has_flag(const std::string& flag) const;
};

// The row of `planned` with its record of this epoch (nullopt: not evaluated yet).
RowView view_row(const PlannedEvaluation& planned, std::uint64_t epoch, const std::optional<nlohmann::json>& record);

// Why a result record read back from a sweep folder cannot be trusted ("evaluation is a string",
// "speedup.vs_library_fp32 is 1e+308"), or nullopt when its figures are of the kinds kbv writes.
// A damaged record is left out of the report as unreadable, not counted (red-team: an
// `evaluation` of "garbage" counted as a pass; a 1e308 speedup made a geomean of 9.8e153).
std::optional<std::string> record_damage(const nlohmann::json& record);

// Speedup keys ("vs_NAME") of an evaluator report, as baseline names with their values.
std::vector<std::pair<std::string, std::optional<double>>> speedups_of(const nlohmann::json& evaluation);

}  // namespace kbv::sweep::report
