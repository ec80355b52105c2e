// timing/duty_pace.cpp — the pause that keeps a sample's busy share at most max_duty.
#include "timing/duty_pace.hpp"

#include <algorithm>

namespace kbv::timing {

double duty_pause_seconds(double busy_seconds, double elapsed_seconds, double max_duty) {
  if (max_duty >= 1.0 || max_duty <= 0.0 || busy_seconds <= 0.0) return 0.0;
  return std::max(0.0, busy_seconds / max_duty - elapsed_seconds);
}

}  // namespace kbv::timing
