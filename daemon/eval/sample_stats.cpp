// eval/sample_stats.cpp — order statistics with linear interpolation between ranks.
#include "eval/sample_stats.hpp"

#include <algorithm>

namespace kbv::eval {

namespace {
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const size_t low = static_cast<size_t>(position);
  const size_t high = std::min(low + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(low);
  return sorted[low] + (sorted[high] - sorted[low]) * fraction;
}
}  // namespace

TimingStats summarize(std::vector<double> samples_s) {
  TimingStats stats;
  std::sort(samples_s.begin(), samples_s.end());
  stats.samples = static_cast<int>(samples_s.size());
  if (samples_s.empty()) return stats;
  stats.median_s = quantile(samples_s, 0.5);
  stats.iqr_s = quantile(samples_s, 0.75) - quantile(samples_s, 0.25);
  stats.min_s = samples_s.front();
  stats.max_s = samples_s.back();
  return stats;
}

double relative_noise(const TimingStats& stats) { return stats.median_s > 0 ? stats.iqr_s / stats.median_s : 0; }

}  // namespace kbv::eval
