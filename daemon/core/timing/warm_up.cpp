// timing/warm_up.cpp — warm-up by wall time, by the callable's own time, or by calls.
#include "timing/warm_up.hpp"

namespace kbv::timing {

bool WarmUp::done() const {
  const bool limited = rule_.wall_seconds > 0 || rule_.timed_seconds > 0 || rule_.max_calls > 0;
  if (!limited) return true;
  if (calls_ == 0) return false;
  return (rule_.wall_seconds > 0 && wall_seconds_ >= rule_.wall_seconds) ||
         (rule_.timed_seconds > 0 && timed_seconds_ >= rule_.timed_seconds) || (rule_.max_calls > 0 && calls_ >= rule_.max_calls);
}

void WarmUp::add(double timed_seconds, double wall_seconds) {
  ++calls_;
  timed_seconds_ += timed_seconds;
  wall_seconds_ += wall_seconds;
}

}  // namespace kbv::timing
