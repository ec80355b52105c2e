// eval/report_stats.hpp — the statistics a report gives of timing samples (median, IQR, min,
// max, IQR / median), overall and per input family. The stop criterion's noise is another
// estimator, the relative standard deviation (core/timing/stdrel_criterion.hpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "eval/verdict.hpp"

namespace kbv::eval {

TimingStats summarize(std::vector<double> samples_s);
// IQR / median, the noise figure reports give (0 for a non-positive median).
double iqr_over_median(const TimingStats& stats);

// Samples split by the group each came from (index for index), each group summarised.
std::map<std::string, TimingStats> summarize_by_group(const std::vector<double>& samples_s, const std::vector<std::string>& groups);
// IQR / median of the samples after each is divided by its group's median (`by_group`, from
// summarize_by_group of the same samples): the noise of the measurement itself when the groups'
// true values differ (a kernel whose time depends on its inputs' values, timed on several input
// families). 0 without samples.
double iqr_over_median_within_groups(const std::vector<double>& samples_s, const std::vector<std::string>& groups,
                                     const std::map<std::string, TimingStats>& by_group);

}  // namespace kbv::eval
