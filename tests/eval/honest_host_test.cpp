// honest_host_test.cpp — every honest host example passes `kbv eval --device host --shapes
// small`, and every bundled problem has one.
#include <gtest/gtest.h>

#include <algorithm>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

class HonestHostCandidate : public ::testing::TestWithParam<std::string> {};

TEST_P(HonestHostCandidate, PassesOnSmallShapes) {
  const std::string problem = GetParam();
  const EvalRun run =
      run_kbv_eval({host_candidate(problem).string(), "--problem", problem, "--device", "host", "--shapes", "small"});
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.result.exit_code, 0) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  EXPECT_TRUE(run.report["hack_pattern"].is_null()) << explain(run);
  ASSERT_TRUE(run.report["candidate"].is_object()) << explain(run);
  EXPECT_EQ(run.report["candidate"].value("problem", ""), problem) << explain(run);
  EXPECT_EQ(run.report["candidate"].value("device", ""), "host") << explain(run);
  ASSERT_TRUE(run.report["problem"].is_object()) << explain(run);
  EXPECT_EQ(run.report["problem"].value("shape_set", ""), "small") << explain(run);
  ASSERT_TRUE(run.report["families"].is_array()) << explain(run);
  EXPECT_FALSE(run.report["families"].empty()) << explain(run);
  for (const auto& family : run.report["families"]) {
    if (family.value("gating", false)) {
      EXPECT_TRUE(family.value("passed", false)) << family.dump();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryProblem, HonestHostCandidate, ::testing::ValuesIn(host_candidate_problems()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

TEST(HonestHostCandidates, CoverEveryBundledProblem) {
  const std::vector<std::string> examples = host_candidate_problems();
  int problems = 0;
  for (const auto& entry : std::filesystem::directory_iterator(problems_dir())) {
    if (entry.path().extension() != ".yaml") continue;
    ++problems;
    const std::string problem = entry.path().stem().string();
    EXPECT_NE(std::find(examples.begin(), examples.end(), problem), examples.end())
        << "problems/" << problem << ".yaml has no honest host example in examples/candidates/host";
  }
  EXPECT_GT(problems, 0) << "no problem specs in " << problems_dir();
}

}  // namespace
}  // namespace kbv::test
