// eval/full_check_schedule.hpp — which timed calls get the full correctness check (the fp64
// reference at the problem's tolerance, and the precision check) on top of the recheck against
// the TF32 baseline that every timed call gets at twice the tolerance: keyed positions the
// candidate cannot know, the first among the first kFirstFullCheckWithin calls, then one every
// kFullCheckGapMin to kFullCheckGapMax calls, for the whole timing phase.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace kbv::eval {

// A candidate that downgrades every timed call (a bf16 branch kept for timing) meets a full check
// within the first 8 calls, on the host too (its timing phase takes at least 10 samples:
// timing/stop_rule.cpp). One that waits for a check and then downgrades meets the next within 24
// calls, which is no longer hidden by a check that never comes again. A mean of one in 16 keeps
// the cost (one fp64 reference each, ~2–5 ms for a 4096³ matmul on the H200) to a few percent
// of the timing phase.
inline constexpr size_t kFirstFullCheckWithin = 8;
inline constexpr size_t kFullCheckGapMin = 8;
inline constexpr size_t kFullCheckGapMax = 24;

class FullCheckSchedule {
 public:
  // `keyed(n)`: a keyed 64-bit value for the n-th check (n = 0 for the first); the schedule draws
  // each position from it.
  explicit FullCheckSchedule(std::function<uint64_t(uint64_t)> keyed);
  // Whether timed call `call` (increasing) gets the full check.
  bool due(size_t call);
  size_t checks() const { return checks_; }

 private:
  std::function<uint64_t(uint64_t)> keyed_;
  size_t next_ = 0;
  size_t checks_ = 0;
};

}  // namespace kbv::eval
