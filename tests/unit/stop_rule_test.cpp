// tests/unit/stop_rule_test.cpp — the sampling presets (core/timing/stop_rule.hpp) and the
// criterion each names (make_criterion).
#include <gtest/gtest.h>

#include <cmath>
#include <variant>

#include "timing/host_budget_criterion.hpp"
#include "timing/stdrel_criterion.hpp"
#include "timing/stop_criterion.hpp"

namespace kbv::timing {
namespace {

TEST(StopRule, NvbenchDefaults) {
  const StopRule rule = StopRule::nvbench_defaults();
  const auto& stdrel = std::get<StdrelParams>(rule.criterion);
  EXPECT_EQ(stdrel.min_samples, 10u);
  EXPECT_DOUBLE_EQ(stdrel.min_measured_seconds, 0.5);
  EXPECT_DOUBLE_EQ(stdrel.max_noise, 0.005);
  EXPECT_DOUBLE_EQ(rule.max_wall_seconds, 15.0);
  EXPECT_DOUBLE_EQ(rule.warm_up.wall_seconds, 0.2);
  EXPECT_DOUBLE_EQ(rule.throttle_threshold, 0.75);
  EXPECT_TRUE(dynamic_cast<StdrelCriterion*>(make_criterion(rule).get()));
}

// The evaluator stops like NVBench and differs only where its presets say why.
TEST(StopRule, EvaluatorCudaStopsLikeNvbench) {
  const StopRule nvbench = StopRule::nvbench_defaults(), cuda = StopRule::evaluator_cuda();
  const auto& a = std::get<StdrelParams>(nvbench.criterion);
  const auto& b = std::get<StdrelParams>(cuda.criterion);
  EXPECT_EQ(a.min_samples, b.min_samples);
  EXPECT_EQ(a.min_measured_seconds, b.min_measured_seconds);
  EXPECT_EQ(a.max_noise, b.max_noise);
  EXPECT_EQ(nvbench.max_wall_seconds, cuda.max_wall_seconds);
  EXPECT_EQ(nvbench.throttle_threshold, cuda.throttle_threshold);
  EXPECT_DOUBLE_EQ(cuda.warm_up.timed_seconds, 0.025);
  EXPECT_EQ(cuda.warm_up.max_calls, 32u);
  EXPECT_EQ(cuda.max_calls, 2000u);
}

TEST(StopRule, EvaluatorHostUsesTheBudget) {
  const StopRule host = StopRule::evaluator_host(0.75);
  EXPECT_DOUBLE_EQ(std::get<HostBudgetParams>(host.criterion).wall_budget_seconds, 0.75);
  EXPECT_EQ(host.warm_up.wall_seconds, 0);  // no warm-up
  EXPECT_EQ(host.warm_up.timed_seconds, 0);
  EXPECT_EQ(host.warm_up.max_calls, 0u);
  EXPECT_FALSE(std::isfinite(host.max_wall_seconds));
  EXPECT_EQ(host.max_calls, 2000u);
  EXPECT_TRUE(dynamic_cast<HostBudgetCriterion*>(make_criterion(host).get()));
}

}  // namespace
}  // namespace kbv::timing
