// eval/phase_clock.hpp — wall time an evaluation spends in each named phase (worker start,
// input generation, baselines, calls, digests, rechecks), reported with the result so a slow
// evaluation says where its time went.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::eval {

class PhaseClock {
 public:
  using Clock = std::chrono::steady_clock;

  // Adds the wall time from its construction to its destruction to `phase`.
  class Scope {
   public:
    Scope(PhaseClock& owner, std::string phase) : owner_(owner), phase_(std::move(phase)), start_(Clock::now()) {}
    ~Scope() { owner_.add(phase_, std::chrono::duration<double>(Clock::now() - start_).count()); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseClock& owner_;
    std::string phase_;
    Clock::time_point start_;
  };

  [[nodiscard]] Scope measure(std::string phase) { return Scope(*this, std::move(phase)); }
  void add(const std::string& phase, double seconds) { seconds_[phase] += seconds; }

  // {"phase": seconds, ...}, in milliseconds' precision.
  nlohmann::json to_json() const {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [phase, seconds] : seconds_) out[phase] = static_cast<double>(static_cast<int64_t>(seconds * 1e3 + 0.5)) / 1e3;
    return out;
  }

 private:
  std::map<std::string, double> seconds_;
};

}  // namespace kbv::eval
