// timing/warm_up.hpp — the calls before the first kept sample: at least one, then until a limit
// the WarmUpRule sets is reached (stop_rule.hpp). Fed each warm-up call's times.
#pragma once

#include <cstddef>

#include "timing/stop_rule.hpp"

namespace kbv::timing {

class WarmUp {
 public:
  explicit WarmUp(const WarmUpRule& rule) : rule_(rule) {}
  // True when no more warm-up calls are needed (at once when the rule sets no limit).
  bool done() const;
  void add(double timed_seconds, double wall_seconds);
  size_t calls() const { return calls_; }

 private:
  WarmUpRule rule_;
  size_t calls_ = 0;
  double timed_seconds_ = 0;
  double wall_seconds_ = 0;
};

}  // namespace kbv::timing
