// sweep/report/report_writer.hpp — write a report's four files into a folder, each atomically:
// report.json, results.csv, report.md and report.html.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep::report {

struct WrittenReport {
  int plots = 0;           // plots in report.html
  std::string vega_error;  // non-empty: report.html has no plotting library (the reason, with the fix)
};

WrittenReport write_report_files(const nlohmann::json& report, const std::filesystem::path& folder);

}  // namespace kbv::sweep::report
