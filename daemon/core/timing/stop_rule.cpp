// timing/stop_rule.cpp — NVBench stdrel stopping criterion.
#include "timing/stop_rule.hpp"

#include <cmath>

namespace kbv::timing {

double NoiseCriterion::noise() const {
  if (moments_.count() < 2 || moments_.mean() <= 0) return 0;
  return moments_.stdev() / moments_.mean();
}

void NoiseCriterion::add(double seconds, double measured_seconds) {
  moments_.add(seconds);
  measured_seconds_ += measured_seconds;
  if (moments_.count() < 2) return;  // NVBench records only finite noise values
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
