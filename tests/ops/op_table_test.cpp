// tests/ops/op_table_test.cpp — docs/problem-spec.md carries the op table `kbv problems --ops
// --markdown` prints, generated from every op's descriptor, so the docs cannot drift from the
// ops (a changed default, a new op).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "ops/op_table.hpp"
#include "ops/registry.hpp"

namespace kbv {
namespace {

constexpr const char* kBeginMarker = "<!-- op-table: begin (generated";
constexpr const char* kEndMarker = "<!-- op-table: end -->";

// The lines between the two markers of docs/problem-spec.md.
std::string documented_table() {
  std::ifstream file(KBV_PROBLEM_SPEC_DOC);
  if (!file) throw std::runtime_error(std::string("cannot read ") + KBV_PROBLEM_SPEC_DOC);
  std::stringstream text;
  text << file.rdbuf();
  const std::string doc = text.str();
  const size_t begin = doc.find(kBeginMarker);
  const size_t end = doc.find(kEndMarker);
  if (begin == std::string::npos || end == std::string::npos || end < begin)
    throw std::runtime_error(std::string(KBV_PROBLEM_SPEC_DOC) + " lacks the op-table markers");
  const size_t first = doc.find('\n', begin) + 1;
  return doc.substr(first, end - first);
}

TEST(OpTable, DocsCarryTheGeneratedTable) {
  EXPECT_EQ(documented_table(), op_table_markdown())
      << "docs/problem-spec.md's op table is out of date: replace the lines between its "
         "op-table markers with the output of `kbv problems --ops --markdown`";
}

TEST(OpTable, HasOneRowPerOp) {
  const std::string markdown = op_table_markdown();
  const std::string text = op_table_text();
  for (const Op* op : all_ops()) {
    EXPECT_NE(markdown.find("| `" + std::string(op->name()) + "` |"), std::string::npos) << op->name();
    EXPECT_NE(text.find("\n" + std::string(op->name()) + " "), std::string::npos) << op->name();
  }
  const auto rows = [](const std::string& table) {
    return static_cast<size_t>(std::count(table.begin(), table.end(), '\n'));
  };
  EXPECT_EQ(rows(markdown), all_ops().size() + 2);  // header and separator
  EXPECT_EQ(rows(text), all_ops().size() + 1);      // header
}

}  // namespace
}  // namespace kbv
