// eval/worker_host_steps.cpp — medians of the worker's host steps per kind of call.
#include "eval/worker_host_steps.hpp"

#include <cmath>

#include "timing/sample_stats.hpp"

namespace kbv::eval {

void WorkerHostSteps::add(const std::string& kind, const nlohmann::json& observed) {
  if (!observed.is_object()) return;
  const auto found = observed.find("host_steps_s");
  if (found == observed.end() || !found->is_object()) return;
  Kind& into = kinds_[kind];
  if (into.calls >= kMaxCallsPerKind) return;
  ++into.calls;
  size_t read = 0;
  for (const auto& [name, value] : found->items()) {
    if (read++ == kMaxStepsPerCall) break;
    if (name.size() > kMaxStepNameBytes || !value.is_number()) continue;
    const double seconds = value.get<double>();
    if (!std::isfinite(seconds) || seconds < 0) continue;
    into.steps[name].push_back(seconds);
  }
}

nlohmann::json WorkerHostSteps::summary() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [kind, steps] : kinds_) {
    nlohmann::json medians = {{"calls", steps.calls}};
    for (const auto& [name, values] : steps.steps) medians[name] = timing::summarize(values).median;
    out[kind] = std::move(medians);
  }
  return out;
}

}  // namespace kbv::eval
