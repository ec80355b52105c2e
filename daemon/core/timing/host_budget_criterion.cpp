// timing/host_budget_criterion.cpp — the host device's time-or-budget criterion.
#include "timing/host_budget_criterion.hpp"

namespace kbv::timing {

void HostBudgetCriterion::add(const Sample& sample) {
  noise_.add(sample.seconds, sample.group);
  candidate_seconds_ += sample.seconds;
  wall_seconds_ += sample.wall_seconds;
}

StopReason HostBudgetCriterion::reason() const {
  if (noise_.count() < params_.min_samples) return StopReason::not_finished;
  if (candidate_seconds_ >= params_.min_candidate_seconds) return StopReason::target_met;
  if (wall_seconds_ >= params_.wall_budget_seconds) return StopReason::budget_spent;
  return StopReason::not_finished;
}

}  // namespace kbv::timing
