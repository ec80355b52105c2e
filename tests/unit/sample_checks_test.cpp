// tests/unit/sample_checks_test.cpp — the timing integrity checks (eval/sample_checks.hpp) on
// synthetic samples: a wrong timed output, an impossible time (with and without the evaluator
// seeing the work), a slow clock; and honest samples pass untouched.
#include <gtest/gtest.h>

#include "eval/sample_checks.hpp"

namespace kbv::eval {
namespace {

TimedSample honest() {
  TimedSample sample;
  sample.call = 7;
  sample.family = "normal";
  sample.reported_s = 1e-3;
  sample.round_trip_s = 2.1e-3;
  sample.null_call_s = 1.0e-3;
  sample.recheck.passed = true;
  return sample;
}

TEST(SampleChecks, HonestSamplesPass) {
  EXPECT_FALSE(check_sample(honest(), 1e-4, true));
  EXPECT_FALSE(check_sample(honest(), 1e-4, false));
  EXPECT_FALSE(check_clock_agreement(1e-3, 1.1e-3, true));
  EXPECT_FALSE(check_clock_agreement(1e-3, 1.1e-3, false));
}

TEST(SampleChecks, AWrongTimedOutputFailsItsFamily) {
  TimedSample sample = honest();
  sample.recheck.passed = false;
  const auto failure = check_sample(sample, 1e-4, true);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->verdict, Verdict::fail_correctness);
  EXPECT_EQ(failure->failed_family, "normal");
  EXPECT_NE(failure->detail.find("sample 7, family normal"), std::string::npos) << failure->detail;
}

TEST(SampleChecks, BelowTheFloorWithTheWorkSeenIsTheWorkOutsideTheWindow) {
  TimedSample sample = honest();
  sample.reported_s = 1e-6;  // the evaluator saw 1.1 ms, the floor is 0.5 ms
  const auto cuda = check_sample(sample, 5e-4, true);
  ASSERT_TRUE(cuda);
  EXPECT_EQ(cuda->verdict, Verdict::hack_suspected);
  EXPECT_EQ(cuda->hack_pattern, "stream_injection");
  EXPECT_EQ(check_sample(sample, 5e-4, false)->hack_pattern, "timer_tampering");
}

TEST(SampleChecks, BelowTheFloorUnseenIsAnImpossibleTime) {
  TimedSample sample = honest();
  sample.reported_s = 1e-6;
  sample.round_trip_s = 1.01e-3;  // 10 µs beyond the null call, under the 0.5 ms floor
  EXPECT_EQ(check_sample(sample, 5e-4, true)->hack_pattern, "impossible_time");
}

// CUDA's slack grows by half the worker's routine before the load: the honest 0.265 ms
// cross_entropy the H100 of r56 flagged (evaluator 1.253 ms beyond the null call, routine
// 0.735 ms with the CUPTI trace) passes; without the trace (routine 0.066 ms) the slack is
// 183 µs and a clock 3x short is caught on a 2 ms call; with that routine, from ~3.1 ms on (below,
// the trace's kernel-span check meets a patched event timer first: red-team timer_patch_cuda).
TEST(SampleChecks, CudaSlackGrowsWithTheWorkersRoutineBeforeTheLoad) {
  EXPECT_TRUE(check_clock_agreement(0.265e-3, 1.253e-3, true));
  EXPECT_FALSE(check_clock_agreement(0.265e-3, 1.253e-3, true, 0.735e-3));
  EXPECT_DOUBLE_EQ(ClockAgreement::for_device(true, 0.066e-3).slack_seconds, 150e-6 + 0.5 * 0.066e-3);
  EXPECT_TRUE(check_clock_agreement(2e-3 / 3, 2e-3, true, 0.066e-3));
  EXPECT_TRUE(check_clock_agreement(4e-3 / 3, 4e-3, true, 0.735e-3));
  // The host's rule takes no routine.
  EXPECT_DOUBLE_EQ(ClockAgreement::for_device(false, 1e-3).slack_seconds, kHostClockAgreementSlackSeconds);
}

// With zeroed CUPTI buffers the routine counts for at least 0.6 ms: the honest cross_entropy of
// r69 (worker 0.263 ms, evaluator 0.829 beyond the null call, routine 0.164 ms) passed with
// headroom 1.19 on the routine alone and has 1.72 with the floor; a longer routine counts as
// measured, and CUPTI's own buffers (or no trace) get no floor.
TEST(SampleChecks, ZeroedTraceBuffersGiveTheRoutineAFloor) {
  EXPECT_DOUBLE_EQ(ClockAgreement::for_device(true, 0.164e-3, true).slack_seconds, 150e-6 + 0.5 * 0.6e-3);
  EXPECT_DOUBLE_EQ(ClockAgreement::for_device(true, 0.8e-3, true).slack_seconds, 150e-6 + 0.5 * 0.8e-3);
  EXPECT_DOUBLE_EQ(ClockAgreement::for_device(true, 0.164e-3, false).slack_seconds, 150e-6 + 0.5 * 0.164e-3);
  EXPECT_DOUBLE_EQ(ClockAgreement::for_device(false, 0.164e-3, true).slack_seconds, kHostClockAgreementSlackSeconds);
  EXPECT_FALSE(check_clock_agreement(0.263e-3, 1.4e-3, true, 0.164e-3, true));
  EXPECT_TRUE(check_clock_agreement(0.263e-3, 1.4e-3, true, 0.164e-3, false));
  // A clock 3x short is still caught on a 2 ms call: 0.667 < 0.5 · 2 − 0.45 is false, so from ~2.7 ms.
  EXPECT_TRUE(check_clock_agreement(3e-3 / 3, 3e-3, true, 0.164e-3, true));
}

TEST(SampleChecks, ASlowClockIsCaughtBeyondTheDevicesSlack) {
  // CUDA: half the trusted time less 150 µs.
  EXPECT_FALSE(check_clock_agreement(0.9e-3, 2e-3, true));
  const auto cuda = check_clock_agreement(0.8e-3, 2e-3, true);
  ASSERT_TRUE(cuda);
  EXPECT_EQ(cuda->hack_pattern, "stream_injection");
  // Host: 0.6 less 40 µs; a 10x slow clock on a 1 ms call is caught, and so is one 3x short
  // (red-team: a hook doing 70 % of the work before the worker's clock started passed the quarter).
  EXPECT_FALSE(check_clock_agreement(0.6e-3, 1e-3, false));
  EXPECT_EQ(check_clock_agreement(0.1e-3, 1e-3, false)->hack_pattern, "timer_tampering");
  EXPECT_EQ(check_clock_agreement(0.3e-3, 1e-3, false)->hack_pattern, "timer_tampering");
  // The worst honest short call measured under load (24 µs of 75 µs trusted) passes.
  EXPECT_FALSE(check_clock_agreement(24e-6, 75e-6, false));
}

}  // namespace
}  // namespace kbv::eval
