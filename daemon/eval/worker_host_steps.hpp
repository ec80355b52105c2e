// eval/worker_host_steps.hpp — the worker's own account of where a call's host time went
// (`host_steps_s` in a call's observations: worker/cuda_device.cpp, worker/host_device.cpp),
// in seconds, gathered per kind of call and summarised as medians for the report
// (environment.worker_host_steps_s). Diagnostic only: it is the candidate's process speaking,
// so no verdict reads it; what one worker sends is bounded, so a hostile one cannot grow it.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::eval {

class WorkerHostSteps {
 public:
  // At most this many steps per call are read (the worker reports eight) and names this long.
  static constexpr size_t kMaxStepsPerCall = 16;
  static constexpr size_t kMaxStepNameBytes = 32;
  // At most this many calls per kind are kept (a timing phase takes a few thousand at most).
  static constexpr size_t kMaxCallsPerKind = 100000;

  // `kind`: "correctness_calls", "timing_calls" or "null_calls". Reads observed["host_steps_s"]:
  // finite, non-negative numbers only.
  void add(const std::string& kind, const nlohmann::json& observed);
  // {kind: {"calls": n, step: median seconds (timing::summarize's), …}, …}; an empty object when
  // nothing was reported.
  nlohmann::json summary() const;

 private:
  struct Kind {
    size_t calls = 0;
    std::map<std::string, std::vector<double>> steps;
  };
  std::map<std::string, Kind> kinds_;
};

}  // namespace kbv::eval
