// timing/stop_criterion.hpp — when to stop sampling, behind one interface: a criterion is fed
// each kept sample and says whether it has enough, and how noisy the samples are. Two exist:
// StdrelCriterion (NVBench's stdrel, stdrel_criterion.hpp) and HostBudgetCriterion
// (host_budget_criterion.hpp); make_criterion builds the one a StopRule names.
#pragma once

#include <memory>
#include <string>

#include "timing/stop_rule.hpp"

namespace kbv::timing {

struct Sample {
  double seconds = 0;           // the timed callable's own time
  double measured_seconds = 0;  // GPU time of the whole measurement it came from (≥ seconds): the
                                // evaluator's interleaved candidate and baselines; NVBench counts this
  double wall_seconds = 0;      // wall time taking it took
  std::string group = {};       // its input group (the evaluator's input family); "" when ungrouped
};

// Why sampling stopped.
enum class StopReason { not_finished, target_met, median_precise, noise_plateau, budget_spent };

class StopCriterion {
 public:
  virtual ~StopCriterion() = default;
  virtual void add(const Sample& sample) = 0;
  virtual StopReason reason() const = 0;
  bool finished() const { return reason() != StopReason::not_finished; }
  // Relative standard deviation of the samples' own times so far, within groups (pooled) once
  // samples carry groups; 0 before two samples.
  virtual double noise() const = 0;
  // The relative half-width of the median's 95 % confidence interval where the criterion judges
  // it (stdrel_criterion.hpp); 0 where it does not.
  virtual double median_half_width() const { return 0; }
};

std::unique_ptr<StopCriterion> make_criterion(const StopRule& rule);

}  // namespace kbv::timing
