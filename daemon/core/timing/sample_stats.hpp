// timing/sample_stats.hpp — order statistics of timing samples (median, quartiles, IQR), running
// moments and the relative standard deviation within groups: pure host code shared by the
// evaluator and the CUDA timer.
#pragma once

#include <cstddef>
#include <map>
#include <string>
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

// Relative standard deviation (stdev / mean) of the values added; once values carry a group,
// within groups, pooled: Σ over groups of (n − 1)·(stdev / mean)², over N − G degrees of freedom.
// Values added without a group do not enter the grouped figure: use one form throughout.
class GroupedRelativeStdev {
 public:
  void add(double value, const std::string& group = "");
  size_t count() const { return all_.count(); }
  // At least two values (in one group, once grouped): value() means something.
  bool defined() const;
  double value() const;  // 0 while not defined, and for groups whose mean is not positive

 private:
  RunningMoments all_;
  std::map<std::string, RunningMoments> groups_;
};

}  // namespace kbv::timing
