// timing/stdrel_criterion.cpp — NVBench's stdrel criterion over grouped or ungrouped samples.
#include "timing/stdrel_criterion.hpp"

#include <cmath>

namespace kbv::timing {

void StdrelCriterion::add(const Sample& sample) {
  noise_.add(sample.seconds, sample.group);
  measured_seconds_ += sample.measured_seconds;
  wall_seconds_ += sample.wall_seconds;
  if (!noise_.defined()) return;  // NVBench records only finite noise values
  const double value = noise_.value();
  if (!std::isfinite(value)) return;
  noise_history_.push_back(value);
  if (noise_history_.size() > kNoiseHistory) noise_history_.pop_front();
}

StopReason StdrelCriterion::reason() const {
  if (noise_.count() < params_.min_samples) return StopReason::not_finished;
  if (measured_seconds_ <= params_.min_measured_seconds) return StopReason::not_finished;
  if (noise_history_.empty()) return StopReason::not_finished;
  if (noise_history_.back() < params_.max_noise) return StopReason::target_met;
  if (params_.max_median_error > 0 && median_half_width() <= params_.max_median_error) return StopReason::median_precise;
  if (on_plateau()) return StopReason::noise_plateau;
  return wall_seconds_ >= params_.settled_wall_seconds ? StopReason::budget_spent : StopReason::not_finished;
}

double StdrelCriterion::median_half_width() const {
  if (noise_history_.empty() || noise_.count() < 2) return 0;
  const double pi = std::acos(-1.0);
  return kConfidenceZ * std::sqrt(pi / 2) * noise_history_.back() / std::sqrt(static_cast<double>(noise_.count()));
}

bool StdrelCriterion::on_plateau() const {
  const double current = noise_history_.back();
  if (noise_history_.size() <= kPlateauMinHistory || noise_.count() % kPlateauCheckEvery != 0 || current <= 0) return false;
  double sum_squares = 0;
  for (double n : noise_history_) sum_squares += (n - current) * (n - current);
  const double spread = std::sqrt(sum_squares / static_cast<double>(noise_history_.size() - 1)) / current;
  return spread < kPlateauSpread;
}

}  // namespace kbv::timing
