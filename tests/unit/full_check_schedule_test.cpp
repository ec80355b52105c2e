// tests/unit/full_check_schedule_test.cpp — the keyed positions of the timed calls' full checks:
// the first within kFirstFullCheckWithin calls, then gaps of kFullCheckGapMin to
// kFullCheckGapMax, for as long as the timing phase runs, and different under different keys.
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
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const std::vector<size_t> due = checked_calls(seed, 1000);
    ASSERT_FALSE(due.empty());
    EXPECT_LT(due.front(), kFirstFullCheckWithin) << "seed " << seed;
    for (size_t i = 1; i < due.size(); ++i) {
      EXPECT_GE(due[i] - due[i - 1], kFullCheckGapMin) << "seed " << seed;
      EXPECT_LE(due[i] - due[i - 1], kFullCheckGapMax) << "seed " << seed;
    }
    EXPECT_GE(1000 - due.back(), size_t{1});
    EXPECT_LE(1000 - due.back(), kFullCheckGapMax + 1) << "the checks stop before the phase does, seed " << seed;
  }
}

TEST(FullCheckSchedule, PositionsDependOnTheKey) {
  std::set<std::vector<size_t>> seen;
  for (uint64_t seed = 0; seed < 50; ++seed) seen.insert(checked_calls(seed, 200));
  EXPECT_GT(seen.size(), 40u);
  std::set<size_t> firsts;
  for (uint64_t seed = 0; seed < 200; ++seed) firsts.insert(checked_calls(seed, 10).front());
  EXPECT_EQ(firsts.size(), kFirstFullCheckWithin) << "every first position is used";
}

TEST(FullCheckSchedule, ACallSkippedOverStillLeavesTheNextDue) {
  FullCheckSchedule schedule([](uint64_t) { return uint64_t{3}; });  // first at 3, then every 8 + 3 = 11
  EXPECT_FALSE(schedule.due(0));
  EXPECT_TRUE(schedule.due(5));  // 3 was never asked about: the next call asked is due
  EXPECT_FALSE(schedule.due(6));
  EXPECT_TRUE(schedule.due(16));
}

}  // namespace
}  // namespace kbv::eval
