// eval/sample_stats.hpp — summary statistics of timing samples (median, IQR, min, max).
#pragma once

#include <vector>

#include "eval/verdict.hpp"

namespace kbv::eval {

TimingStats summarize(std::vector<double> samples_s);
// IQR / median: the noise figure reports use (the CUDA stop rule uses NVBench's relative
// standard deviation, core/timing/stop_rule.hpp).
double relative_noise(const TimingStats& stats);

}  // namespace kbv::eval
