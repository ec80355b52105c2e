// timing/sample_stats.cpp — quantiles and running moments.
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

}  // namespace kbv::timing
