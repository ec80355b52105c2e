// daemon/sweep/report/report_markdown.cpp — render report sections as Markdown.
#include "sweep/report/report_markdown.hpp"

#include "sweep/report/report_sections.hpp"

namespace kbv::sweep::report {

// A model named "<script>…" ran in a rendered report.md (red-team); one named
// "![x](https://…)" made a previewer fetch the image, "[pass](https://…)" a link (review):
// brackets are escaped, so no link or image is made of the text.
std::string markdown_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '[') out += "\\[";
    else if (c == ']') out += "\\]";
    else out += c;
  }
  return out;
}

namespace {

// A table cell: no line breaks, pipes escaped, as markdown_text.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : markdown_text(text)) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

void table(std::string& out, const Table& t) {
  const auto row = [&](const std::vector<std::string>& cells) {
    out += "|";
    for (const auto& c : cells) out += " " + cell(c) + " |";
    out += "\n";
  };
  row(t.header);
  out += "|";
  for (std::size_t i = 0; i < t.header.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : t.rows) row(r);
  out += "\n";
}

}  // namespace

std::string report_markdown(const nlohmann::json& report) {
  std::string out;
  bool first = true;
  for (const auto& section : report_sections(report)) {
    out += (first ? "# " : "## ") + cell(section.title) + "\n\n";
    first = false;
    for (const auto& paragraph : section.paragraphs) out += markdown_text(paragraph) + "\n\n";
    for (const auto& t : section.tables) table(out, t);
  }
  return out;
}

}  // namespace kbv::sweep::report
