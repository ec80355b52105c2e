// eval/full_check_schedule.cpp — keyed positions of the timed calls' full checks.
#include "eval/full_check_schedule.hpp"

#include <utility>

namespace kbv::eval {

FullCheckSchedule::FullCheckSchedule(std::function<uint64_t(uint64_t)> keyed) : keyed_(std::move(keyed)) {
  first_ = static_cast<size_t>(keyed_(0) % kFirstFullCheckWithin);
}

bool FullCheckSchedule::due(size_t call) {
  if (call < first_) return false;
  const bool due = !first_done_ || keyed_(static_cast<uint64_t>(call) + 1) % kFullCheckOneIn == 0;
  first_done_ = true;
  if (due) ++checks_;
  return due;
}

}  // namespace kbv::eval
