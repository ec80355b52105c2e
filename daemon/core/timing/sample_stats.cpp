// timing/sample_stats.cpp — quantiles, running moments, relative standard deviation within groups.
#include "timing/sample_stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kbv::timing {

double quantile_of_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("quantile of an empty sample");
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto low = static_cast<size_t>(std::floor(position));
  const size_t high = std::min(low + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(low);
  return sorted[low] + (sorted[high] - sorted[low]) * fraction;
}

SampleSummary summarize(std::vector<double> values) {
  SampleSummary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.count = values.size();
  s.min = values.front();
  s.max = values.back();
  s.median = quantile_of_sorted(values, 0.5);
  s.q1 = quantile_of_sorted(values, 0.25);
  s.q3 = quantile_of_sorted(values, 0.75);
  s.iqr = s.q3 - s.q1;
  RunningMoments moments;
  for (double v : values) moments.add(v);
  s.mean = moments.mean();
  s.stdev = moments.stdev();
  return s;
}

void RunningMoments::add(double value) {
  ++count_;
  sum_ += value;
  const double delta = value - mean_;
  mean_ += delta / static_cast<double>(count_);
  m2_ += delta * (value - mean_);
}

double RunningMoments::stdev() const {
  if (count_ < 2) return 0;
  return std::sqrt(std::max(0.0, m2_ / static_cast<double>(count_ - 1)));
}

void GroupedRelativeStdev::add(double value, const std::string& group) {
  all_.add(value);
  if (!group.empty()) groups_[group].add(value);
}

bool GroupedRelativeStdev::defined() const {
  if (all_.count() < 2) return false;
  return groups_.empty() || std::any_of(groups_.begin(), groups_.end(), [](const auto& g) { return g.second.count() >= 2; });
}

double GroupedRelativeStdev::value() const {
  if (groups_.empty()) {
    if (all_.count() < 2 || all_.mean() <= 0) return 0;
    return all_.stdev() / all_.mean();
  }
  double relative_squares = 0;
  size_t degrees = 0;
  for (const auto& [group, moments] : groups_) {
    if (moments.count() < 2 || moments.mean() <= 0) continue;
    const double relative = moments.stdev() / moments.mean();
    relative_squares += static_cast<double>(moments.count() - 1) * relative * relative;
    degrees += moments.count() - 1;
  }
  return degrees > 0 ? std::sqrt(relative_squares / static_cast<double>(degrees)) : 0;
}

}  // namespace kbv::timing
