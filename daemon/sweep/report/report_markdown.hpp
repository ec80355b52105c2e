// sweep/report/report_markdown.hpp — report.md: the report's sections as GitHub Markdown.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep::report {

std::string report_markdown(const nlohmann::json& report);

}  // namespace kbv::sweep::report
