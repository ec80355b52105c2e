// tests/unit/warm_up_test.cpp — warm-up (core/timing/warm_up.hpp): at least one call, then until
// the first limit the rule sets; none when it sets none.
#include <gtest/gtest.h>

#include "timing/warm_up.hpp"

namespace kbv::timing {
namespace {

size_t calls_until_done(WarmUp& warm_up, double timed_seconds, double wall_seconds, size_t cap = 100000) {
  while (!warm_up.done() && warm_up.calls() < cap) warm_up.add(timed_seconds, wall_seconds);
  return warm_up.calls();
}

TEST(WarmUp, NoLimitMeansNoWarmUp) {
  WarmUp warm_up(WarmUpRule{});
  EXPECT_TRUE(warm_up.done());
  EXPECT_EQ(warm_up.calls(), 0u);
}

TEST(WarmUp, AtLeastOneCallHoweverLongTheLimit) {
  WarmUp warm_up(WarmUpRule{.wall_seconds = 1e-9});
  EXPECT_FALSE(warm_up.done());
  EXPECT_EQ(calls_until_done(warm_up, 1.0, 1.0), 1u);
}

TEST(WarmUp, ByWallTimeAsTheColdTimerDoes) {
  WarmUp warm_up(StopRule::nvbench_defaults().warm_up);
  const size_t calls = calls_until_done(warm_up, 1e-3, 10e-3);  // 0.2 s of 10 ms calls, whatever their GPU time
  EXPECT_GE(calls, 20u);  // 20 or 21: the sum's rounding
  EXPECT_LE(calls, 21u);
}

TEST(WarmUp, ByTheCallablesOwnTimeOrCallsAsTheEvaluatorDoes) {
  const WarmUpRule rule = StopRule::evaluator_cuda().warm_up;
  WarmUp long_kernel(rule), short_kernel(rule);
  const size_t long_calls = calls_until_done(long_kernel, 5e-3, 1.0);  // 25 ms of 5 ms calls, however long in wall time
  EXPECT_GE(long_calls, 5u);
  EXPECT_LE(long_calls, 6u);
  EXPECT_EQ(calls_until_done(short_kernel, 2e-6, 1e-3), 32u);   // a 2 µs kernel: the call cap
}

}  // namespace
}  // namespace kbv::timing
