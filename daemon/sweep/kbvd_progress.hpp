// sweep/kbvd_progress.hpp — tell kbvd how a sweep goes, so its /metrics (and Grafana) show the
// progress and, at the end, the headline figures: fast_1 per model against the report's
// headline baseline, and the regressions (daemon/kbvd/metrics/sweep_metrics.hpp).
//
// Best effort in both modes: a kbvd that cannot be reached, or that refuses the message, is told
// nothing more and the sweep goes on. Shards of a job array do not report (the merged report is
// the sweep's figure).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep {

class KbvdProgress {
 public:
  KbvdProgress(std::filesystem::path socket, std::string sweep, std::uint64_t epoch, bool enabled);

  // Planned evaluations and those with a verdict so far; sent at most every kMinInterval.
  void running(std::size_t planned, std::size_t done);
  // The sweep ended; `report` (report.json) gives the headline figures when it was written.
  void finished(std::size_t planned, std::size_t done, const nlohmann::json* report);

  bool enabled() const { return enabled_; }

 private:
  void send(nlohmann::json message);

  // Prometheus scrapes every 15 s (monitoring/prometheus/prometheus.yml): updates more often
  // than this are never seen.
  static constexpr std::chrono::seconds kMinInterval{2};

  std::filesystem::path socket_;
  std::string sweep_;
  std::uint64_t epoch_;
  bool enabled_;
  std::chrono::steady_clock::time_point last_sent_{};
};

}  // namespace kbv::sweep
