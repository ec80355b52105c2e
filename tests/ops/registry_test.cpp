// tests/ops/registry_test.cpp — the op table: every op folder registered once under its name,
// found by that name, its documented attributes the ones it accepts. (What each op computes,
// accepts and costs is tested through its own cases: op_cases_test.cpp; its defaults, inputs and
// precision class are pinned by the docs table: op_table_test.cpp.)
#include <set>

#include "op_test_support.hpp"

namespace kbv {
namespace {

TEST(OpRegistry, ListsEveryOpOnceAndFindsEachByName) {
  std::set<std::string> names;
  for (const Op* op : all_ops()) {
    ASSERT_NE(op, nullptr);
    EXPECT_TRUE(names.insert(std::string(op->name())).second) << "duplicate op " << op->name();
    EXPECT_EQ(find_op(op->name()), op);
  }
  EXPECT_FALSE(names.empty());
}

TEST(OpRegistry, UnknownNameGivesNull) {
  EXPECT_EQ(find_op("convolution"), nullptr);
  EXPECT_EQ(find_op(""), nullptr);
  EXPECT_EQ(find_op("ReLU"), nullptr);
}

TEST(OpRegistry, DocumentsExactlyTheAttributesEachOpAccepts) {
  for (const Op* op : all_ops()) {
    Attrs documented;
    for (const OpAttribute& attribute : op->doc().attributes)
      EXPECT_TRUE(documented.emplace(std::string(attribute.name), attribute.default_value).second)
          << op->name() << " documents " << attribute.name << " twice";
    EXPECT_EQ(documented, op->attribute_defaults()) << op->name();
    EXPECT_LE(op->min_inputs(), op->max_inputs()) << op->name();
    EXPECT_FALSE(op->doc().inputs.empty()) << op->name();
    EXPECT_FALSE(op->doc().pytorch.empty()) << op->name();
    EXPECT_FALSE(op->doc().flops_rule.empty()) << op->name();
  }
}

}  // namespace
}  // namespace kbv
