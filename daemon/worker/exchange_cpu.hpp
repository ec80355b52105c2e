// worker/exchange_cpu.hpp — the worker main thread's CPU time through its exchanges with the
// evaluator, on the host device: from its last answer to this message (being stopped and
// continued, waking, reading it) and this message's own besides run(). Diagnostics for
// environment.worker_host_steps_s (the candidate's process speaking: no verdict reads them). Why:
// an honest host call's exchange cost the worker about 20 µs more CPU than a null call's, which
// is what the CPU-time floor subtracts too little of (docs/measurement.md, clock agreement).
#pragma once

#include <time.h>

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

namespace kbv::worker {

// The calling thread's CPU time (user and system), seconds.
inline double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

class ExchangeCpu {
 public:
  // Disabled, every call does nothing (the CUDA device reports its own steps).
  explicit ExchangeCpu(bool enabled) : enabled_(enabled) {}

  // A message was read.
  void received() {
    if (!enabled_) return;
    received_ = thread_cpu_seconds();
    since_last_answer_ = answered_ ? std::optional<double>(received_ - *answered_) : std::nullopt;
  }
  // Into the answer's observations, just before it is sent: `run_cpu` is run()'s own CPU time
  // (the device's step of that name), 0 for a message that ran nothing.
  void add_to(nlohmann::json& observed) const {
    if (!enabled_) return;
    nlohmann::json& steps = observed["host_steps_s"];
    const double run_cpu = steps.is_object() ? steps.value("run_cpu", 0.0) : 0.0;
    steps["message_besides_run_cpu"] = std::max(0.0, thread_cpu_seconds() - received_ - run_cpu);
    if (since_last_answer_) steps["since_last_answer_cpu"] = *since_last_answer_;
  }
  // The answer was sent.
  void answered() {
    if (enabled_) answered_ = thread_cpu_seconds();
  }

 private:
  bool enabled_;
  double received_ = 0;
  std::optional<double> since_last_answer_;
  std::optional<double> answered_;
};

}  // namespace kbv::worker
