// Computes the epoch number and its bounds from the configured origin and length.
#include "sched/epoch.hpp"

#include <cmath>

namespace kbv::kbvd {
namespace {
constexpr double kSecondsPerDay = 86400.0;

double unix_seconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}
}  // namespace

EpochSpan epoch_at(const EpochConfig& config, std::chrono::system_clock::time_point now) {
  const double length_s = config.length_days * kSecondsPerDay;
  const double origin_s = unix_seconds(config.origin);
  const double elapsed = unix_seconds(now) - origin_s;
  EpochSpan span;
  span.number = elapsed <= 0 ? 0 : static_cast<std::int64_t>(std::floor(elapsed / length_s));
  span.starts_at_unix_s = origin_s + static_cast<double>(span.number) * length_s;
  span.ends_at_unix_s = span.starts_at_unix_s + length_s;
  return span;
}

}  // namespace kbv::kbvd
