// eval/sample_stats.cpp — a verdict's TimingStats from samples, through core/timing's order
// statistics (linear interpolation between ranks, numpy's default).
#include "eval/sample_stats.hpp"

#include "timing/sample_stats.hpp"

namespace kbv::eval {

TimingStats summarize(std::vector<double> samples_s) {
  const timing::SampleSummary summary = timing::summarize(std::move(samples_s));
  TimingStats stats;
  stats.samples = static_cast<int>(summary.count);
  stats.median_s = summary.median;
  stats.iqr_s = summary.iqr;
  stats.min_s = summary.min;
  stats.max_s = summary.max;
  return stats;
}

double relative_noise(const TimingStats& stats) { return stats.median_s > 0 ? stats.iqr_s / stats.median_s : 0; }

}  // namespace kbv::eval
