// eval/report_stats.cpp — a verdict's TimingStats from samples, through core/timing's order
// statistics (linear interpolation between ranks, numpy's default).
#include "eval/report_stats.hpp"

#include <stdexcept>

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

double iqr_over_median(const TimingStats& stats) { return stats.median_s > 0 ? stats.iqr_s / stats.median_s : 0; }

std::map<std::string, TimingStats> summarize_by_group(const std::vector<double>& samples_s, const std::vector<std::string>& groups) {
  if (samples_s.size() != groups.size()) throw std::invalid_argument("summarize_by_group: one group per sample");
  std::map<std::string, std::vector<double>> split;
  for (size_t i = 0; i < samples_s.size(); ++i) split[groups[i]].push_back(samples_s[i]);
  std::map<std::string, TimingStats> stats;
  for (auto& [group, samples] : split) stats[group] = summarize(std::move(samples));
  return stats;
}

double iqr_over_median_within_groups(const std::vector<double>& samples_s, const std::vector<std::string>& groups,
                                     const std::map<std::string, TimingStats>& by_group) {
  std::vector<double> normalised;
  for (size_t i = 0; i < samples_s.size(); ++i) {
    const double median = by_group.at(groups[i]).median_s;
    if (median > 0) normalised.push_back(samples_s[i] / median);
  }
  return iqr_over_median(summarize(std::move(normalised)));
}

}  // namespace kbv::eval
