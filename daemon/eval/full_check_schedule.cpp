// eval/full_check_schedule.cpp — keyed positions of the timed calls' full checks.
#include "eval/full_check_schedule.hpp"

#include <utility>

namespace kbv::eval {

FullCheckSchedule::FullCheckSchedule(std::function<uint64_t(uint64_t)> keyed) : keyed_(std::move(keyed)) {
  next_ = static_cast<size_t>(keyed_(0) % kFirstFullCheckWithin);
}

bool FullCheckSchedule::due(size_t call) {
  if (call < next_) return false;
  ++checks_;
  next_ = call + kFullCheckGapMin + static_cast<size_t>(keyed_(checks_) % (kFullCheckGapMax - kFullCheckGapMin + 1));
  return true;
}

}  // namespace kbv::eval
