// tests/unit/host_budget_criterion_test.cpp — the host device's stopping criterion
// (core/timing/host_budget_criterion.hpp) on synthetic samples: ten samples at least, then the
// candidate's own time or the wall budget, whichever comes first.
#include <gtest/gtest.h>

#include "timing/host_budget_criterion.hpp"

namespace kbv::timing {
namespace {

TEST(HostBudgetCriterion, StopsOnTheCandidatesOwnTime) {
  HostBudgetCriterion criterion(HostBudgetParams{.min_candidate_seconds = 0.05, .wall_budget_seconds = 100});
  int added = 0;
  while (!criterion.finished() && added < 1000) {
    criterion.add({.seconds = 1e-3, .measured_seconds = 2e-3, .wall_seconds = 1.5e-3});
    ++added;
  }
  EXPECT_GE(added, 49);  // 0.05 s of 1 ms calls; the baselines' time does not count
  EXPECT_LE(added, 51);
  EXPECT_EQ(criterion.reason(), StopReason::target_met);
}

TEST(HostBudgetCriterion, StopsOnTheWallBudgetWhenCallsAreTiny) {
  HostBudgetCriterion criterion(HostBudgetParams{.min_candidate_seconds = 0.05, .wall_budget_seconds = 0.5});
  int added = 0;
  while (!criterion.finished() && added < 100000) {
    criterion.add({.seconds = 1e-6, .measured_seconds = 1e-6, .wall_seconds = 1e-3});  // 1 µs calls, 1 ms of routine each
    ++added;
  }
  EXPECT_GE(added, 499);
  EXPECT_LE(added, 501);
  EXPECT_EQ(criterion.reason(), StopReason::budget_spent);
}

TEST(HostBudgetCriterion, NeedsMinimumSamplesWhateverTheBudget) {
  HostBudgetCriterion criterion(HostBudgetParams{.min_candidate_seconds = 0.05, .wall_budget_seconds = 0.5});
  for (int i = 0; i < 9; ++i) {
    criterion.add({.seconds = 1.0, .measured_seconds = 1.0, .wall_seconds = 1.0});  // each over both limits
    EXPECT_FALSE(criterion.finished());
  }
  criterion.add({.seconds = 1.0, .measured_seconds = 1.0, .wall_seconds = 1.0});
  EXPECT_TRUE(criterion.finished());
}

TEST(HostBudgetCriterion, NoiseIsTheRelativeStdevWithinGroups) {
  HostBudgetCriterion criterion(HostBudgetParams{});
  for (int i = 0; i < 40; ++i)
    criterion.add({.seconds = (i % 2 ? 2e-3 : 1e-3) * ((i / 2) % 2 ? 1.01 : 0.99), .group = i % 2 ? "normal" : "uniform01"});
  EXPECT_NEAR(criterion.noise(), 0.01, 0.001);  // ±1 % within each family; the families' 2× apart does not count
}

}  // namespace
}  // namespace kbv::timing
