// sweep/report/report_markdown.hpp — report.md: the report's sections as GitHub Markdown.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep::report {

std::string report_markdown(const nlohmann::json& report);

// Untrusted text (model names, paths, details) as Markdown text: HTML's special characters as
// entities, since Markdown renderers pass raw HTML through.
std::string markdown_text(const std::string& text);

}  // namespace kbv::sweep::report
