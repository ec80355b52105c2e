// sweep/result_record.hpp — the file a sweep keeps per evaluation (docs/report-schema.md,
// "Result records"): the candidate as the sweep found it, the verdict, how the evaluator ended,
// and the evaluator's own JSON report (`kbv eval --json`) unchanged, or null when it left none
// (a crash or a timeout).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sched/outcome.hpp"
#include "sweep/candidate.hpp"

namespace kbv::sweep {

inline constexpr const char* kResultSchema = "kbv.sweep.result";
inline constexpr int kResultSchemaVersion = 1;

// Why a candidate is in a sweep: it was found in the sweep's sources, or it passed in one of
// the last epochs and is evaluated again on this epoch's hidden families.
inline constexpr const char* kRoleCurrent = "current";
inline constexpr const char* kRoleReverify = "reverify";

// From an evaluator child the sweep ran itself (--standalone): kbvd's rules turn its exit and
// output into a verdict, so both modes judge a dead evaluator alike.
nlohmann::json record_from_outcome(const Candidate& candidate, const std::string& role, std::uint64_t epoch,
                                   const kbvd::Outcome& outcome);

// From one finished evaluation kbvd reports (`kbv results show`'s evaluations[i]).
nlohmann::json record_from_kbvd(const Candidate& candidate, const std::string& role, std::uint64_t epoch,
                                const nlohmann::json& evaluation);

}  // namespace kbv::sweep
