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
#include "sweep/record_check.hpp"

namespace kbv::sweep::report {

struct RowView {
  std::string key;            // the plan's key (stays "<sha256>-declared" once the problem is known)
  PlannedEvaluation planned;  // candidate (problem and level as evaluated, once known), role, prior verdict
  bool evaluated = false;     // a verdict exists for this epoch
  std::uint64_t epoch = 0;
  std::string verdict, detail, hack_pattern, failed_family, via;
  std::vector<std::string> flags;
  // Baseline name ("library_tf32" for speedup.vs_library_tf32 and schema 1's vs_tf32, "eager_tf32" for
  // speedup.vs_eager_tf32, …) and
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

// Speedup keys ("vs_NAME") of an evaluator report, as baseline names with their values.
std::vector<std::pair<std::string, std::optional<double>>> speedups_of(const nlohmann::json& evaluation);

}  // namespace kbv::sweep::report
