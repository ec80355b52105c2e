// tests/sweep/report/report_html_test.cpp — report.html is self-contained and every plot it
// holds renders in headless Chromium with no console error: a report with every kind of plot
// (bars, log bars, fast_p lines, heatmaps, the comparison's transitions).
#include "sweep/report/report_html.hpp"

#include <gtest/gtest.h>

#include "chromium_page.hpp"
#include "sweep/report/report_builder.hpp"
#include "sweep/report/report_writer.hpp"
#include "sweep/result_record.hpp"
#include "sweep_test_files.hpp"

namespace kbv::sweep::report {
namespace {

using nlohmann::json;

// A report with two models, two baselines, memory figures, a hack, a flag and a previous sweep.
json full_report() {
  ReportInput input;
  input.sweep_name = "html";
  input.epoch = 3;
  const auto add = [&](const std::string& sha, const std::string& model, const std::string& problem, const std::string& verdict, const json& extra) {
    PlannedEvaluation planned;
    planned.candidate.sha256 = sha;
    planned.candidate.name = "<b>" + sha + "</b>.so";  // markup in a name must stay text
    planned.candidate.model = model;
    planned.candidate.problem = problem;
    planned.role = kRoleCurrent;
    json evaluation = {{"verdict", verdict}, {"flags", json::array()}, {"problem", {{"name", problem}, {"level", 1}}}};
    evaluation.update(extra);
    input.rows.push_back(view_row(planned, 3, json{{"verdict", verdict}, {"evaluation", evaluation}}));
  };
  add("a1", "model-a", "relu", "pass", {{"speedup", {{"vs_tf32", 1.7}, {"vs_fp32", 6.0}}}, {"memory", {{"ratio", 1.2}}}});
  add("a2", "model-a", "gelu", "pass", {{"speedup", {{"vs_tf32", 0.8}, {"vs_fp32", 2.5}}}, {"memory", {{"ratio", 0.9}}}});
  add("b1", "model-b", "relu", "fail_correctness", {{"flags", {"passes_public_inputs_only"}}, {"speedup", {{"vs_tf32", nullptr}}}});
  add("b2", "model-b", "gelu", "hack_suspected", {{"hack_pattern", "stream_injection"}});
  add("b3", "model-b", "relu", "pass", {{"speedup", {{"vs_tf32", 0.3}, {"vs_fp32", 1.1}}}});
  input.previous = json{{"sweep", {{"epoch", 2}}}, {"candidates", json::array({{{"key", "a1-relu"}, {"status", "evaluated"}, {"verdict", "fail_correctness"}},
                                                                                {{"key", "b3-relu"}, {"status", "evaluated"}, {"verdict", "pass"}}})}};
  return build_report(input);
}

TEST(ReportHtml, SelfContainedAndEscaped) {
  const auto page = report_html(full_report());
  ASSERT_TRUE(page.vega_error.empty()) << page.vega_error;
  EXPECT_EQ(page.plots, 10) << "correctness, geomean, memory, 2 fast_p, 2 heatmaps, hacks, public gap, transitions";
  for (const char* load : {"<script src", "<link", "<img", "@import", "url(http"})
    EXPECT_EQ(page.html.find(load), std::string::npos) << "nothing is loaded from elsewhere: " << load;
  EXPECT_EQ(page.html.find("<b>a1</b>"), std::string::npos) << "markup in names is escaped";
  EXPECT_NE(page.html.find("&lt;b&gt;a1&lt;/b&gt;.so"), std::string::npos);
  EXPECT_EQ(test::occurrences(page.html, "<div class=\"plot\""), page.plots);
}

TEST(ReportHtml, EveryPlotRendersInChromium) {
  if (test::chromium_binary().empty())
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it): report.html was not opened in a browser";
  test::TempFolder dir;
  const auto written = write_report_files(full_report(), dir.path());
  const auto page = test::render_page(dir.path() / "report.html");
  ASSERT_TRUE(page.browser_found);
  ASSERT_EQ(page.exit_status, 0) << page.browser_log;
  EXPECT_EQ(test::body_attribute(page.dom, "data-kbv-plots"), "rendered") << page.console << page.browser_log;
  EXPECT_EQ(test::body_attribute(page.dom, "data-kbv-plots-expected"), std::to_string(written.plots));
  EXPECT_EQ(test::body_attribute(page.dom, "data-kbv-plots-rendered"), std::to_string(written.plots));
  EXPECT_EQ(test::occurrences(page.dom, "<svg"), written.plots) << "one SVG per plot";
  EXPECT_EQ(page.console, "") << "no console message at all";
}

TEST(ReportHtml, ABrokenPlotIsSeenByTheCheck) {
  if (test::chromium_binary().empty()) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
  // The same check on a page whose plot cannot render must fail: proof it can.
  test::TempFolder dir;
  auto page_html = report_html(full_report()).html;
  const std::string scale = "\"type\":\"band\"";
  ASSERT_NE(page_html.find(scale), std::string::npos);
  page_html.replace(page_html.find(scale), scale.size(), "\"type\":\"no-such-scale\"");
  test::write_text(dir.path() / "broken.html", page_html);
  const auto page = test::render_page(dir.path() / "broken.html");
  EXPECT_EQ(test::body_attribute(page.dom, "data-kbv-plots"), "failed");
  EXPECT_NE(page.console, "") << "the error reached the console";
}

}  // namespace
}  // namespace kbv::sweep::report
