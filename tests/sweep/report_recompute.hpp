// tests/sweep/report_recompute.hpp — recompute every figure of a sweep's report.json from the
// per-evaluation JSON (each result record's `kbv eval --json` object) and the plan, without the
// report code, and compare: an independent second implementation of docs/report-schema.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep::test {

// Checks `report` (a report.json of `epoch`) against the records and the latest plan in the
// sweep folder `out` with gtest assertions; returns how many figures it compared.
int expect_report_matches_records(const nlohmann::json& report, const std::filesystem::path& out, std::uint64_t epoch);

}  // namespace kbv::sweep::test
