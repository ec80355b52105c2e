// tests/sweep/report/report_csv_test.cpp — results.csv: one row per candidate × problem, a
// column per baseline the report names, fields quoted by RFC 4180, no formulas; report.md's
// untrusted text escaped.
#include "sweep/report/report_csv.hpp"
#include "sweep/report/report_markdown.hpp"
#include "sweep/report/report_sections.hpp"

#include <gtest/gtest.h>

namespace kbv::sweep::report {
namespace {

using nlohmann::json;

TEST(ReportCsv, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "two\\nlines") << "every row stays one line";
  EXPECT_EQ(csv_field("a,\r\nb"), "\"a,\\r\\nb\"");
  // Red-team: a model named like a formula ran in a spreadsheet; numbers stay numbers.
  EXPECT_EQ(csv_field("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
  EXPECT_EQ(csv_field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_field("+1 evil"), "'+1 evil");
  EXPECT_EQ(csv_field("-0.25"), "-0.25");
  EXPECT_EQ(csv_field("-1e-3"), "-1e-3");
  EXPECT_EQ(csv_field("a;b"), "\"a;b\"");  // ';' separates fields in some locales
}

TEST(ReportMarkdown, UntrustedTextCannotBecomeHtml) {
  EXPECT_EQ(markdown_text("<script>alert(1)</script> & more"), "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
  EXPECT_EQ(markdown_text("relu x 1.5"), "relu x 1.5");
  EXPECT_EQ(markdown_text("![x](https://attacker.example/p.gif) [pass](https://evil)"),
            "!\\[x\\](https&#58;//attacker.example/p.gif) \\[pass\\](https&#58;//evil)");
  // Review: GFM made links of "www.…" and "a@b"; a line break in a field made structure.
  EXPECT_EQ(markdown_text("www.evil.example me@host x:y"), "www&#46;evil.example me&#64;host x:y");
  EXPECT_EQ(markdown_text("then\n\n# heading"), "then\\n\\n# heading");
}

// Review: a candidate named "x\x1b]52;c;…\x07.so" wrote the clipboard of whoever ran `cat
// report.md` or `cat results.csv`; a NUL in a crash's detail reached the CSV raw.
TEST(ReportText, ControlCharactersAreEscapedInCsvAndMarkdown) {
  const std::string osc52 = "x\x1b]52;c;aGk=\x07.so";
  for (const std::string& written : {csv_field(osc52), markdown_text(osc52), csv_field(std::string("a\0b", 3)), csv_field("c1 \xc2\x9b[2J")}) {
    for (const char c : written) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << written;
    EXPECT_EQ(written.find("\xc2\x9b"), std::string::npos) << "C1 CSI";
  }
  EXPECT_NE(csv_field(osc52).find("\\x1b"), std::string::npos);
}

// Review: 0.9996 (not counted in fast_1) and 1.0004 (counted) both read "1×"; 9999/10000 read
// "100.0 %", 1/3000 "0.0 %".
TEST(ReportText, RoundingNeverCrossesTheLineItDescribes) {
  EXPECT_EQ(speedup_text(0.9996), "0.9996×");
  EXPECT_EQ(speedup_text(1.0004), "1.0004×");
  EXPECT_EQ(speedup_text(1.0), "1×");
  EXPECT_EQ(speedup_text(2.34567), "2.35×");
  EXPECT_EQ(speedup_text(nullptr), "–");
  EXPECT_EQ(percent_text(0.9999), ">99.9 %");
  EXPECT_EQ(percent_text(1999.0 / 2000), ">99.9 %") << "exactly 99.95 as a double";
  EXPECT_EQ(percent_text(1.0 / 3000), "<0.1 %");
  EXPECT_EQ(percent_text(1.0), "100.0 %");
  EXPECT_EQ(percent_text(0.0), "0.0 %");
  EXPECT_EQ(percent_text(0.25), "25.0 %");
}

TEST(ReportCsv, OneRowPerCandidateWithBaselineColumns) {
  const json report = {
      {"sweep", {{"epoch", 9}}},
      {"baselines", {"library_tf32"}},
      {"baselines_without_figures", {"eager_tf32"}},
      {"candidates", json::array({
                         {{"key", "k1-relu"}, {"model", "m"}, {"verdict", "pass"}, {"tags", {"a", "b"}}, {"flags", json::array()},
                          {"speedup", {{"library_tf32", 1.5}, {"eager_tf32", nullptr}}}, {"regression", false}, {"detail", "ok, fine"}},
                         {{"key", "k2-declared"}, {"status", "not_evaluated"}, {"verdict", nullptr}, {"speedup", json::object()}},
                     })}};
  const auto csv = report_csv(report);
  std::vector<std::string> lines;
  for (std::size_t start = 0, end; (end = csv.find('\n', start)) != std::string::npos; start = end + 1) lines.push_back(csv.substr(start, end - start));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("key,sha256,epoch,name,", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(",speedup_vs_library_tf32,speedup_vs_eager_tf32,memory_ratio,"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("k1-relu,,9,"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find(",\"a;b\","), std::string::npos) << "lists joined with ';', quoted: " << lines[1];
  EXPECT_NE(lines[1].find(",1.5,,"), std::string::npos) << "a null baseline is an empty field: " << lines[1];
  EXPECT_NE(lines[1].find(",false,"), std::string::npos);
  EXPECT_NE(lines[1].find("\"ok, fine\""), std::string::npos);
  EXPECT_EQ(std::count(lines[0].begin(), lines[0].end(), ','), std::count(lines[2].begin(), lines[2].end(), ','));
}

// Each item of a list is guarded against formulas on its own (review: where ';' separates a
// spreadsheet's fields, a tag "=2+5" after another started a cell of its own).
TEST(ReportCsv, EveryListItemIsGuardedAgainstFormulas) {
  const json report = {{"sweep", {{"epoch", 1}}},
                       {"baselines", json::array()},
                       {"candidates", json::array({{{"key", "k"}, {"tags", {"a", "=2+5", "-1"}}, {"speedup", json::object()}}})}};
  const auto csv = report_csv(report);
  EXPECT_NE(csv.find(",\"a;'=2+5;-1\","), std::string::npos) << csv;
}

}  // namespace
}  // namespace kbv::sweep::report
