// timing/stop_rule.cpp — NVBench stdrel stopping criterion.
#include "timing/stop_rule.hpp"

#include <algorithm>
#include <cmath>

namespace kbv::timing {

double NoiseCriterion::noise() const {
  if (groups_.empty()) {
    if (moments_.count() < 2 || moments_.mean() <= 0) return 0;
    return moments_.stdev() / moments_.mean();
  }
  // Σ over groups of (n−1)·(stdev/mean)², over N − G degrees of freedom.
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

void NoiseCriterion::add(double seconds, double measured_seconds) {
  moments_.add(seconds);
  measured_seconds_ += measured_seconds;
  record_noise();
}

void NoiseCriterion::add(double seconds, double measured_seconds, const std::string& group) {
  groups_[group].add(seconds);
  moments_.add(seconds);
  measured_seconds_ += measured_seconds;
  record_noise();
}

void NoiseCriterion::record_noise() {
  if (moments_.count() < 2) return;  // NVBench records only finite noise values
  if (!groups_.empty() && std::none_of(groups_.begin(), groups_.end(), [](const auto& g) { return g.second.count() >= 2; })) return;
  const double value = noise();
  if (!std::isfinite(value)) return;
  noise_history_.push_back(value);
  if (noise_history_.size() > kNoiseHistory) noise_history_.pop_front();
}

bool NoiseCriterion::finished() const {
  if (moments_.count() < rule_.min_samples) return false;
  if (measured_seconds_ <= rule_.min_gpu_seconds) return false;
  if (noise_history_.empty()) return false;
  const double current = noise_history_.back();
  if (current < rule_.max_noise) return true;
  if (noise_history_.size() > kPlateauMinHistory && moments_.count() % kPlateauCheckEvery == 0 &&
      current > 0) {
    double sum_squares = 0;
    for (double n : noise_history_) sum_squares += (n - current) * (n - current);
    const double spread =
        std::sqrt(sum_squares / static_cast<double>(noise_history_.size() - 1)) / current;
    if (spread < kPlateauSpread) return true;
  }
  return false;
}

}  // namespace kbv::timing
