// sweep/report/report_csv.hpp — results.csv: one row per candidate × problem of a report, with a
// speedup column per baseline the report names (docs/report-schema.md, "results.csv").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep::report {

std::string report_csv(const nlohmann::json& report);

// One CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
std::string csv_field(const std::string& text);

}  // namespace kbv::sweep::report
