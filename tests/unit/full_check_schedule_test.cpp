// tests/unit/full_check_schedule_test.cpp — the keyed positions of the timed calls' full checks:
// the first within kFirstFullCheckWithin calls, then one call in kFullCheckOneIn drawn call by
// call, for as long as the timing phase runs, and different under different keys.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "eval/full_check_schedule.hpp"

namespace kbv::eval {
namespace {

// A stand-in for the keyed hash: splitmix64 of (seed, n).
uint64_t mixed(uint64_t seed, uint64_t n) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (n + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<size_t> checked_calls(uint64_t seed, size_t calls) {
  FullCheckSchedule schedule([seed](uint64_t n) { return mixed(seed, n); });
  std::vector<size_t> due;
  for (size_t call = 0; call < calls; ++call)
    if (schedule.due(call)) due.push_back(call);
  EXPECT_EQ(schedule.checks(), due.size());
  return due;
}

TEST(FullCheckSchedule, TheFirstComesEarlyAndTheRestKeepComing) {
  size_t total = 0;
  bool back_to_back = false;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const std::vector<size_t> due = checked_calls(seed, 1000);
    ASSERT_FALSE(due.empty());
    EXPECT_LT(due.front(), kFirstFullCheckWithin) << "seed " << seed;
    EXPECT_GT(due.back(), 800u) << "the checks stopped before the phase did, seed " << seed;
    for (size_t i = 1; i < due.size(); ++i) back_to_back |= due[i] == due[i - 1] + 1;
    total += due.size();
  }
  // One in kFullCheckOneIn of the calls after the first, give or take: 200 phases of 1000 calls.
  EXPECT_GT(total, 200 * 1000 / kFullCheckOneIn * 8 / 10);
  EXPECT_LT(total, 200 * 1000 / kFullCheckOneIn * 12 / 10);
  EXPECT_TRUE(back_to_back) << "a check says nothing about when the next one comes";
}

// The attack the schedule is for, at the evaluator's shortest CUDA timing phase: a candidate that
// downgrades 55 % of the calls after a 32-call warm-up (enough of the 32 kept ones to move the
// median), chosen at random, meets at least one check in about 90 % of evaluations
// (1 − (1 − 0.55/8)^32; at one in 16 it was 67 %: full_check_schedule.hpp).
TEST(FullCheckSchedule, ADowngradeOfMostKeptCallsIsUsuallyChecked) {
  constexpr size_t kWarmUp = 32, kKept = 32;  // StopRule::evaluator_cuda: warm-up max_calls, kEvaluatorMinSamples
  constexpr int kEvaluations = 4000;
  int caught = 0;
  for (uint64_t seed = 0; seed < kEvaluations; ++seed) {
    FullCheckSchedule schedule([seed](uint64_t n) { return mixed(seed, n); });
    bool checked = false;
    for (size_t call = 0; call < kWarmUp + kKept; ++call) {
      const bool downgraded = call >= kWarmUp && mixed(~seed, call) % 100 < 55;
      checked |= schedule.due(call) && downgraded;
    }
    caught += checked;
  }
  EXPECT_GT(caught, kEvaluations * 86 / 100) << caught << " of " << kEvaluations;
}

TEST(FullCheckSchedule, PositionsDependOnTheKey) {
  std::set<std::vector<size_t>> seen;
  for (uint64_t seed = 0; seed < 50; ++seed) seen.insert(checked_calls(seed, 200));
  EXPECT_EQ(seen.size(), 50u);
  std::set<size_t> firsts;
  for (uint64_t seed = 0; seed < 200; ++seed) firsts.insert(checked_calls(seed, 10).front());
  EXPECT_EQ(firsts.size(), kFirstFullCheckWithin) << "every first position is used";
}

TEST(FullCheckSchedule, ACallSkippedOverStillLeavesTheFirstDue) {
  FullCheckSchedule schedule([](uint64_t n) { return n == 0 ? uint64_t{3} : uint64_t{1}; });  // first at 3, none after
  EXPECT_FALSE(schedule.due(0));
  EXPECT_TRUE(schedule.due(5));  // 3 was never asked about: the next call asked is due
  EXPECT_FALSE(schedule.due(6));
  EXPECT_EQ(schedule.checks(), 1u);
}

}  // namespace
}  // namespace kbv::eval
