// sweep/report/report_html.hpp — report.html: one self-contained page (no network) with the
// report's sections, tables and Vega plots.
//
// The page tells a headless browser (tests/sweep) how its plots went: once every plot has
// rendered or failed, <body data-kbv-plots> is "rendered" (or "failed", or "unavailable" when
// Vega was missing at generation), data-kbv-plots-expected / -rendered count them, and
// window.kbvReport.errors lists any error.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep::report {

struct HtmlPage {
  std::string html;
  int plots = 0;          // plots in the page
  std::string vega_error; // why the page has no plotting library ("" when it has one)
};

HtmlPage report_html(const nlohmann::json& report);

}  // namespace kbv::sweep::report
