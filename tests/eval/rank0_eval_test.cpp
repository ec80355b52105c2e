// rank0_eval_test.cpp — `kbv eval` end to end on a problem whose output has rank 0 (a loss,
// shape []): the arena's one-element output, the worker's view of it, poisoning, the comparison,
// the determinism and timing rechecks, and the class walk (no class may be degenerate merely
// because a one-element output is its own mean). The problem is tests/eval/problems/
// smooth_l1_mean.yaml; hostile_loss_mean is honest, hostile_loss_sum forgets to divide.
#include <gtest/gtest.h>

#include "kbv_eval.hpp"

namespace kbv::test {
namespace {

EvalRun eval_loss(const std::string& candidate) {
  return run_kbv_eval({hostile_candidate(candidate).string(), "--problem", "smooth_l1_mean", "--device", "host",
                       "--shapes", "small"},
                      {{"KBV_PROBLEMS_DIR", KBV_TEST_OWN_PROBLEMS_DIR}});
}

TEST(Rank0Eval, AnHonestLossPassesAndEveryClassGates) {
  const EvalRun run = eval_loss("loss_mean");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.result.exit_code, 0) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "pass") << explain(run);
  ASSERT_TRUE(run.report["degenerate_classes"].is_array()) << explain(run);
  EXPECT_TRUE(run.report["degenerate_classes"].empty()) << explain(run);
  for (const auto& entry : run.report["classes"]) EXPECT_TRUE(entry["gating_family"].is_string()) << entry.dump();
}

TEST(Rank0Eval, ALossOffByItsElementCountFails) {
  const EvalRun run = eval_loss("loss_sum");
  ASSERT_TRUE(run.report.is_object()) << explain(run);
  EXPECT_EQ(run.report.value("verdict", ""), "fail_correctness") << explain(run);
  EXPECT_EQ(run.report.value("failed_family", ""), "uniform01") << explain(run);
}

}  // namespace
}  // namespace kbv::test
