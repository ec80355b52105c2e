// names_test.cpp — every hack pattern and flag kbv's evaluator can report has its own label in
// kbvd's metrics (an unlabelled one would be counted as "other": timer_tampering was, until
// 2026-11-30), and kbvd labels no flag the evaluator cannot raise.
#include <gtest/gtest.h>

#include <algorithm>

#include "eval/verdict.hpp"
#include "metrics/metrics.hpp"

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(MetricNames, EveryHackPatternTheEvaluatorReportsHasItsLabel) {
  for (const std::string& pattern : kbv::eval::hack_patterns())
    EXPECT_TRUE(contains(kbv::kbvd::known_hack_patterns(), pattern)) << pattern;
}

TEST(MetricNames, FlagLabelsAreExactlyTheEvaluatorsFlagsAndOther) {
  for (const std::string& flag : kbv::eval::review_flags()) EXPECT_TRUE(contains(kbv::kbvd::known_flags(), flag)) << flag;
  for (const std::string& label : kbv::kbvd::known_flags())
    EXPECT_TRUE(label == "other" || contains(kbv::eval::review_flags(), label)) << label;
}

}  // namespace
