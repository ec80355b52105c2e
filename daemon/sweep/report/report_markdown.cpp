// daemon/sweep/report/report_markdown.cpp — render report sections as Markdown.
#include "sweep/report/report_markdown.hpp"

#include "client/printable.hpp"
#include "sweep/report/report_sections.hpp"

namespace kbv::sweep::report {

// A model named "<script>…" ran in a rendered report.md (red-team); one named
// "![x](https://…)" made a previewer fetch the image, "[pass](https://…)" a link (review):
// brackets are escaped, so no link or image is made of the text; nor is an autolink of
// "www.…", "scheme://…" or "name@host" (review), nor structure of a line break in a field. Control
// characters and invalid UTF-8 are escaped (control::printable): `cat report.md` must not run a
// terminal escape sequence a candidate's name or stderr carried.
std::string markdown_text(const std::string& text) {
  const std::string safe = control::printable(text);
  std::string out;
  for (std::size_t i = 0; i < safe.size(); ++i) {
    const char c = safe[i];
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '[') out += "\\[";
    else if (c == ']') out += "\\]";
    else if (c == '@') out += "&#64;";
    else if (c == ':' && safe.compare(i + 1, 2, "//") == 0) out += "&#58;";
    else if (c == '.' && i >= 3 && (safe.compare(i - 3, 3, "www") == 0 || safe.compare(i - 3, 3, "WWW") == 0)) out += "&#46;";
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
