// sweep/report/report_sections.hpp — the text of a report as sections of paragraphs and tables,
// built once from report.json and rendered both as report.md and inside report.html.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::sweep::report {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct Section {
  std::string id;     // anchor, and where report.html puts the section's plots
  std::string title;
  std::vector<std::string> paragraphs;  // plain text (renderers escape it)
  std::vector<Table> tables;
  bool collapsed = false;  // long listings: folded away in HTML
};

std::vector<Section> report_sections(const nlohmann::json& report);

// Number formats shared by the text and the plots' labels.
std::string percent_text(const nlohmann::json& fraction);  // 0.5 -> "50.0 %", null -> "–"
std::string speedup_text(const nlohmann::json& speedup);   // 1.234 -> "1.23×", null -> "–"

}  // namespace kbv::sweep::report
