// sweep/report/report_csv.hpp — results.csv: one row per candidate × problem of a report, with a
// speedup column per baseline the report names (docs/report-schema.md, "results.csv").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep::report {

std::string report_csv(const nlohmann::json& report);

// One CSV field on one line: line breaks written as \n and \r, then quoted when it holds a comma
// or quote (RFC 4180).
std::string csv_field(const std::string& text);

}  // namespace kbv::sweep::report
