// sweep/report/report_builder.hpp — turn a sweep's rows into report.json (docs/report-schema.md):
// per model the correctness rate, fast_p curves and geometric-mean speedup against every
// baseline the evaluator reports, memory ratio, hack and flag counts; per problem × model the
// speedups; the public-vs-hidden gap; regressions after rotation; the comparison with the
// previous sweep. Every figure is computed here from the rows and nothing else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/issue.hpp"
#include "sweep/report/row_view.hpp"

namespace kbv::sweep::report {

inline constexpr const char* kReportSchema = "kbv.report";
inline constexpr int kReportSchemaVersion = 1;

// fast_p is computed for p = 0, 0.1, …, 3: the range the sweep issue asks for, in steps that
// contain KernelBench's points (0, 0.5, 0.8, 1, 1.5, 2).
inline constexpr int kFastPSteps = 30;
inline constexpr double kFastPMax = 3.0;
inline constexpr int kFastPStepOfOne = kFastPSteps / 3;  // the step where p = 1 (fast_1)
double fast_p_point(int step);  // p of step 0 … kFastPSteps

// Baselines in the order reports show them (the evaluator's names without "vs_"); others follow
// alphabetically. The headline figure uses the first one that has figures.
const std::vector<std::string>& preferred_baselines();

struct ShardState {
  int index = 1;
  std::string state;  // complete, incomplete (ran, not every verdict), missing (never started)
  int planned = 0, evaluated = 0;
  std::optional<std::uint64_t> epoch;  // the epoch its status file says it evaluated (none: missing)
  std::string host, key_id, kbv_version, stopped_because;
};

struct ReportInput {
  std::string sweep_name, mode;
  std::string source;  // where the rows came from: "sweep folder PATH" or "kbvd SOCKET"
  std::uint64_t epoch = 0;
  std::string plan_id, key_id;
  int reverify_epochs = 0;
  std::vector<RowView> rows;
  int shard_count = 1;
  std::vector<ShardState> shards;  // sharded plans only
  Issues issues;
  std::string stopped_because;          // why the run that wrote this stopped early ("" if it did not)
  nlohmann::json run = nullptr;         // the run's id, times and evaluations started
  std::optional<nlohmann::json> previous;  // the previous sweep's report.json
  std::string previous_run;             // its run folder
};

nlohmann::json build_report(const ReportInput& input);

// Display name of a model ("" is a candidate without one).
std::string model_label(const std::string& model);

}  // namespace kbv::sweep::report
