// eval/full_check_schedule.hpp — which timed calls get the full correctness check (the fp64
// reference at the problem's tolerance, and the precision check) on top of the recheck against
// the TF32 baseline that every timed call gets at twice the tolerance: one among the first
// kFirstFullCheckWithin calls, then each later call with probability 1 / kFullCheckOneIn, all
// from keyed values the candidate cannot know.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace kbv::eval {

// A candidate that downgrades every timed call (a bf16 branch kept for timing) meets a full check
// within the first 8 calls, on the host too (its timing phase takes at least 10 samples:
// timing/stop_rule.cpp). Later calls are drawn one by one, with no gap after a check: a candidate
// that sees a check happen (each costs the evaluator one fp64 reference, a few ms between two
// messages) learns nothing about the next. To move a median a candidate must downgrade more than
// half the kept calls, and the evaluator keeps 32 on CUDA when their noise allows
// (timing/stop_rule.cpp, kEvaluatorMinSamples): at one in 8, such a downgrade of p = 0.55 of them
// meets no check with probability (1 − p/8)^32 ≈ 10 % (one in 16: 33 %; before the 32-sample
// minimum, short kernels took hundreds of calls and long ones ~30). The cost is one fp64
// reference a check (~2–5 ms for a 4096³ matmul on the H200, ~70 ms for conv2d_relu_biasadd on the
// H100): at one in 16 the checks took 1.2 s of r78's 33 s of later candidates, so about 2 % more.
inline constexpr size_t kFirstFullCheckWithin = 8;
inline constexpr uint64_t kFullCheckOneIn = 8;

class FullCheckSchedule {
 public:
  // `keyed(n)`: a keyed 64-bit value for decision n (0: where the first check goes; n > 0: timed
  // call n - 1 after it). The evaluator keys it with a nonce of its own per evaluation, so two
  // submissions of one candidate meet different positions.
  explicit FullCheckSchedule(std::function<uint64_t(uint64_t)> keyed);
  // Whether timed call `call` (increasing) gets the full check.
  bool due(size_t call);
  size_t checks() const { return checks_; }

 private:
  std::function<uint64_t(uint64_t)> keyed_;
  size_t first_ = 0;
  bool first_done_ = false;
  size_t checks_ = 0;
};

}  // namespace kbv::eval
