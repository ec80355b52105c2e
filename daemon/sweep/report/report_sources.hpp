// sweep/report/report_sources.hpp — where a report's rows come from: a sweep's output folder
// (its latest plan of an epoch and the result records; shards merged and checked), or kbvd's
// store through its control socket (every candidate with an evaluation in the epoch).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "sweep/report/report_builder.hpp"
#include "sweep/sweep_folder.hpp"

namespace kbv::sweep::report {

// The folder or the store cannot give a report; what() names what is missing and the fix.
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The newest epoch of a sweep folder that has a plan; throws SourceError when there is none.
std::uint64_t latest_planned_epoch(const SweepFolder& folder);

// Rows of the latest plan of `epoch` with their records. Throws SourceError when the epoch has
// no plan, or when its shards used different secret keys (their verdicts do not belong in one
// report).
ReportInput input_from_folder(const SweepFolder& folder, std::uint64_t epoch);

// Every candidate kbvd has an evaluation of `epoch` for (default: kbvd's current epoch), with
// its latest verdict of the `window` epochs before (regressions).
ReportInput input_from_kbvd(const std::filesystem::path& socket, std::optional<std::uint64_t> epoch, int window);

// Why `report` cannot be compared with — not a kbv.report of this schema version, sweep.epoch not
// a count, candidates not a list of rows with text keys — or nullopt. (A damaged previous report
// threw a type_error that stopped every later report; another schema counted every pass as new.)
std::optional<std::string> previous_report_damage(const nlohmann::json& report);

// The previous sweep of a folder for a report of (epoch, plan_id): among the runs whose
// report.json can be compared with, one of an earlier epoch, or of this epoch and another plan (a
// re-run of the same plan compares with what came before it, not with itself); the latest epoch
// first, then the newest run — so a report regenerated for an old epoch is never the "previous"
// of a newer one. Sets `run` to its folder name; runs skipped as damaged go to `issues`.
std::optional<nlohmann::json> previous_report(const SweepFolder& folder, std::uint64_t epoch, const std::string& plan_id,
                                              std::string* run, Issues* issues = nullptr);

// Whether `epoch` is the folder's newest: only its reports are copied to the folder's top
// (report.json, …), which a report of an older epoch would otherwise replace.
bool is_newest_epoch(const SweepFolder& folder, std::uint64_t epoch);

}  // namespace kbv::sweep::report
