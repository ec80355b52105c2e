// daemon/sweep/report/report_html.cpp — the self-contained HTML page: sections, tables, plots.
#include "sweep/report/report_html.hpp"

#include <fmt/format.h>

#include <map>

#include "client/json_dump.hpp"
#include "sweep/report/report_plots.hpp"
#include "sweep/report/report_sections.hpp"
#include "sweep/report/vega_bundle.hpp"

namespace kbv::sweep::report {
namespace {

using nlohmann::json;

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// JSON for a <script> element: '<' only occurs inside strings, where \u003c means the same.
std::string script_json(const json& value) {
  const auto text = control::json_dump(value);
  std::string out;
  out.reserve(text.size());
  for (const char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

constexpr const char* kStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1em 2em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.88em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } tr:nth-child(even) td { background: #fafafa; }
.plots { display: flex; flex-wrap: wrap; gap: 1.5em; } .plot { min-height: 60px; }
.notice { background: #fff3cd; border: 1px solid #e0c36c; padding: 0.6em 1em; }
summary { cursor: pointer; font-size: 1.25em; font-weight: bold; margin-top: 2em; }
)css";

// Renders every plot; reports on <body> when all are done (see report_html.hpp).
constexpr const char* kRenderScript = R"js(
(function () {
  var report = window.kbvReport = { expected: 0, rendered: 0, errors: [] };
  var specs = JSON.parse(document.getElementById('kbv-plot-specs').textContent);
  var ids = Object.keys(specs);
  report.expected = ids.length;
  document.body.setAttribute('data-kbv-plots-expected', String(ids.length));
  function settle() {
    document.body.setAttribute('data-kbv-plots-rendered', String(report.rendered));
    if (report.rendered + report.errors.length < report.expected) return;
    document.body.setAttribute('data-kbv-plots', report.errors.length ? 'failed' : 'rendered');
  }
  window.addEventListener('error', function (event) { report.errors.push(String(event.message)); settle(); });
  if (typeof vega === 'undefined') {
    document.body.setAttribute('data-kbv-plots', ids.length ? 'unavailable' : 'rendered');
    return;
  }
  function failed(id, error) { report.errors.push(id + ': ' + error); console.error(id, String(error)); settle(); }
  ids.forEach(function (id) {
    try {
      new vega.View(vega.parse(specs[id]), { renderer: 'svg', container: '#' + id, hover: true })
        .runAsync()
        .then(function () { report.rendered += 1; settle(); })
        .catch(function (error) { failed(id, error); });
    } catch (error) {
      failed(id, error);  // a specification Vega cannot parse
    }
  });
  settle();
})();
)js";

void table_html(std::string& out, const Table& t) {
  out += "<table><thead><tr>";
  for (const auto& h : t.header) out += "<th>" + escape(h) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (const auto& c : row) out += "<td>" + escape(c) + "</td>";
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
}

}  // namespace

HtmlPage report_html(const json& report) {
  HtmlPage page;
  const auto plots = report_plots(report);
  page.plots = static_cast<int>(plots.size());
  std::map<std::string, std::vector<const Plot*>> plots_of;
  json specs = json::object();
  for (const auto& plot : plots) {
    plots_of[plot.section].push_back(&plot);
    specs[plot.id] = plot.spec;
  }
  const auto vega = vega_script(&page.vega_error);
  const auto sections = report_sections(report);

  std::string& out = page.html;
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>" + escape(sections.front().title) + "</title>\n<style>" + std::string(kStyle) + "</style>\n";
  if (vega) out += "<script>\n" + *vega + "</script>\n";
  out += "</head>\n<body data-kbv-plots=\"pending\">\n";
  if (!vega && !plots.empty())
    out += "<p class=\"notice\">The plots cannot be shown: this page was written without its plotting library. " + escape(page.vega_error) +
           " Then run <code>kbv report</code> again.</p>\n";
  bool first = true;
  for (const auto& section : sections) {
    out += fmt::format("<section id=\"{}\">\n", escape(section.id));
    if (section.collapsed) out += "<details><summary>" + escape(section.title) + "</summary>\n";
    else out += (first ? "<h1>" : "<h2>") + escape(section.title) + (first ? "</h1>\n" : "</h2>\n");
    first = false;
    for (const auto& paragraph : section.paragraphs) out += "<p>" + escape(paragraph) + "</p>\n";
    if (const auto found = plots_of.find(section.id); found != plots_of.end()) {
      out += "<div class=\"plots\">\n";
      for (const Plot* plot : found->second) out += fmt::format("<div class=\"plot\" id=\"{}\"></div>\n", escape(plot->id));
      out += "</div>\n";
    }
    for (const auto& t : section.tables) table_html(out, t);
    if (section.collapsed) out += "</details>\n";
    out += "</section>\n";
  }
  out += "<script type=\"application/json\" id=\"kbv-plot-specs\">" + script_json(specs) + "</script>\n";
  out += "<script>" + std::string(kRenderScript) + "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace kbv::sweep::report
