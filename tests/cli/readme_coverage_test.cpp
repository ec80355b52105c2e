// tests/cli/readme_coverage_test.cpp — README.md's KernelBench section carries the coverage table
// (levels × imported, GPU only, curated, refused) of problems/kernelbench/COVERAGE.md, which every import
// rewrites: a re-import that changes the counts fails here until the README says the same.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The lines of the first table whose header is `header`, header and separator included.
std::vector<std::string> table(const std::string& text, const std::string& header) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (!inside && line == header) inside = true;
    if (!inside) continue;
    if (line.empty() || line.front() != '|') break;
    lines.push_back(line);
  }
  return lines;
}

TEST(ReadmeCoverage, TheKernelBenchTableIsCoverageMds) {
  const std::string header = "| level | imported | of which GPU only | curated | refused | total |";
  const auto coverage = table(read(KBV_TEST_SOURCE_DIR "/problems/kernelbench/COVERAGE.md"), header);
  ASSERT_GE(coverage.size(), 5u) << "COVERAGE.md has no '" << header << "' table";
  EXPECT_EQ(table(read(KBV_TEST_SOURCE_DIR "/README.md"), header), coverage)
      << "README.md's KernelBench section must carry COVERAGE.md's table as it is now";
}

}  // namespace
