// timing/host_budget_criterion.hpp — the host device's stopping criterion: after min_samples,
// finished once the candidate's own time reaches min_candidate_seconds or the samples' wall time
// reaches the phase's wall budget, whichever comes first (HostBudgetParams in stop_rule.hpp).
#pragma once

#include "timing/sample_stats.hpp"
#include "timing/stop_criterion.hpp"

namespace kbv::timing {

class HostBudgetCriterion final : public StopCriterion {
 public:
  explicit HostBudgetCriterion(const HostBudgetParams& params) : params_(params) {}
  void add(const Sample& sample) override;
  StopReason reason() const override;
  double noise() const override { return noise_.value(); }

 private:
  HostBudgetParams params_;
  GroupedRelativeStdev noise_;
  double candidate_seconds_ = 0;
  double wall_seconds_ = 0;
};

}  // namespace kbv::timing
