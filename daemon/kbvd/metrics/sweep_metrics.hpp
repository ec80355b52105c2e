// metrics/sweep_metrics.hpp — sweeps in kbvd's /metrics: progress of a running `kbv sweep` and
// the last finished sweep's headline figures, which the sweep itself reports over the control
// socket ({"cmd": "sweep", ...}, docs/sweeps.md "Metrics").
//
//   kbv_sweep_evaluations{sweep, state="planned"|"done"}   the sweep's plan and its verdicts so far
//   kbv_sweep_running{sweep}                                1 from start to finish
//   kbv_sweep_last_finished_timestamp_seconds{sweep}        when the last one finished
//   kbv_sweep_last_complete{sweep}                          1: it left no planned evaluation without a verdict
//   kbv_sweep_last_epoch{sweep}
//   kbv_sweep_last_regressions{sweep}                       passes of recent epochs that fail now
//   kbv_sweep_last_fast_1_ratio{sweep, model, baseline}     correct and faster than the baseline, per model
//
// Labels stay bounded: at most kMaxSweeps sweep names and kMaxModels models per sweep; a sweep's
// fast_1 series are replaced whole by its next finished report. A new name past the bound takes
// the place of the sweep updated longest ago among those that finished or fell silent while
// running (kSilentRunningSeconds: a sweep killed mid-way never says it finished), whose series all
// leave /metrics; only when every shown sweep is running and recent is the new name refused.
// Nothing here is persisted: after a restart the figures return with the next sweep.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <set>
#include <utility>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

namespace kbv::kbvd {

// A sweep message kbvd refuses; what() says which field and why.
class SweepMessageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class SweepMetrics {
 public:
  // Nightly, weekly and a few ad-hoc sweeps per daemon shown at once; past this, the oldest
  // finished (or silent) one makes room.
  static constexpr std::size_t kMaxSweeps = 16;
  // A running sweep reports every verdict; one silent this long has stopped without saying so
  // (killed) and may make room. A day: longer than any single evaluation's timeout by far.
  static constexpr double kSilentRunningSeconds = 24 * 3600.0;
  // Models compared in one sweep's headline; past this, the report's first ones by name are kept.
  static constexpr std::size_t kMaxModels = 32;

  explicit SweepMetrics(prometheus::Registry& registry);

  // {"sweep": NAME, "epoch": E, "state": "running"|"finished", "planned": N, "done": K,
  //  "complete": bool (finished), "headline": {"baseline": B, "fast_1": {model: x}, "regressions": R}
  //  (finished; optional)}. Throws SweepMessageError for a malformed message.
  void update(const nlohmann::json& message);

 private:
  prometheus::Family<prometheus::Gauge>& evaluations_;
  prometheus::Family<prometheus::Gauge>& running_;
  prometheus::Family<prometheus::Gauge>& finished_at_;
  prometheus::Family<prometheus::Gauge>& complete_;
  prometheus::Family<prometheus::Gauge>& epoch_;
  prometheus::Family<prometheus::Gauge>& regressions_;
  prometheus::Family<prometheus::Gauge>& fast_1_;
  // Every series one sweep name has, to remove them together when it makes room.
  struct Shown {
    std::set<std::pair<prometheus::Family<prometheus::Gauge>*, prometheus::Gauge*>> series;
    std::set<prometheus::Gauge*> fast_1;  // also in `series`; replaced whole by the next headline
    bool running = false;
    std::chrono::steady_clock::time_point updated;
  };
  prometheus::Gauge& series(const std::string& sweep, prometheus::Family<prometheus::Gauge>& family,
                            const std::map<std::string, std::string>& labels);
  // Removes the sweep shown longest ago that finished or fell silent; false when there is none.
  bool make_room();
  std::map<std::string, Shown> sweeps_;
};

}  // namespace kbv::kbvd
