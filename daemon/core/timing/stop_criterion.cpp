// timing/stop_criterion.cpp — the criterion a StopRule names.
#include "timing/stop_criterion.hpp"

#include "timing/host_budget_criterion.hpp"
#include "timing/stdrel_criterion.hpp"

namespace kbv::timing {

std::unique_ptr<StopCriterion> make_criterion(const StopRule& rule) {
  struct Maker {
    std::unique_ptr<StopCriterion> operator()(const StdrelParams& p) const { return std::make_unique<StdrelCriterion>(p); }
    std::unique_ptr<StopCriterion> operator()(const HostBudgetParams& p) const { return std::make_unique<HostBudgetCriterion>(p); }
  };
  return std::visit(Maker{}, rule.criterion);
}

}  // namespace kbv::timing
