// timing/sample_stats.hpp — order statistics of timing samples (median, quartiles, IQR) and
// running moments, pure host code shared by the evaluator and the CUDA timer.
#pragma once

#include <cstddef>
#include <vector>

namespace kbv::timing {

struct SampleSummary {
  size_t count = 0;
  double median = 0, q1 = 0, q3 = 0, iqr = 0, min = 0, max = 0;
  double mean = 0, stdev = 0;  // stdev: sample (n − 1) standard deviation
};

// Quantile q ∈ [0, 1] of sorted values, linearly interpolated between order statistics
// (Hyndman–Fan type 7, numpy's default). Requires a non-empty input.
double quantile_of_sorted(const std::vector<double>& sorted, double q);

// All zeros for an empty input.
SampleSummary summarize(std::vector<double> values);

// Welford's running mean and variance: O(1) per value, so a stop rule can ask for the noise
// after every sample without rescanning (NVBench rescans, O(n²) over 10⁵ short samples).
class RunningMoments {
 public:
  void add(double value);
  size_t count() const { return count_; }
  double mean() const { return mean_; }
  double sum() const { return sum_; }
  double stdev() const;  // sample standard deviation; 0 below two values

 private:
  size_t count_ = 0;
  double mean_ = 0, m2_ = 0, sum_ = 0;
};

}  // namespace kbv::timing
