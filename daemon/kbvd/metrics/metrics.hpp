// kbvd's Prometheus metrics (monitoring/README.md, Metric conventions: prefix kbv_, base units, _total counters, label
// sets created at zero) and the /metrics exposer.
#pragma once

#include <map>
#include <memory>
#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <string>
#include <vector>

#include "metrics/sweep_metrics.hpp"
#include "sched/outcome.hpp"

namespace prometheus {
class Exposer;
}

namespace kbv::kbvd {

// Hack patterns with their own label value (docs/threat-model.md, Patterns); anything else counts as "other"
// so a new pattern name cannot grow the label set without bound.
const std::vector<std::string>& known_hack_patterns();
// Review flags with their own label value; others count as "other".
const std::vector<std::string>& known_flags();
// Problem levels with their own label value (KernelBench levels); others count as "unknown".
const std::vector<std::string>& known_levels();

class Metrics {
 public:
  explicit Metrics(const std::vector<std::string>& slot_labels);
  ~Metrics();

  // Serves /metrics on host:port (port 0: any free one). Throws on bind failure.
  void expose(const std::string& listen);
  int port() const;  // the bound port, 0 when not exposed

  void evaluation_finished(const Outcome& outcome);
  void worker_exit(const std::string& reason);
  void candidate_ingested(const std::string& result);  // queued | duplicate | rejected
  void set_queue_depth(double waiting);
  void set_in_flight(const std::string& slot, bool busy);
  void add_busy_seconds(const std::string& slot, double seconds);
  void observe_overhead(double seconds);
  void set_epoch(double epoch);
  void heartbeat(double unix_seconds);
  void set_store_writable(bool writable);
  void store_write_failed();
  void set_unsaved_results(double count);
  void set_control_clients(double count);

  // Progress and headline figures that `kbv sweep` reports (the control command "sweep").
  SweepMetrics& sweeps() { return *sweeps_; }

  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::unique_ptr<SweepMetrics> sweeps_;
  std::map<std::string, prometheus::Counter*> by_verdict_, by_exit_, by_pattern_, by_flag_, by_ingest_,
      busy_seconds_;
  std::map<std::string, prometheus::Gauge*> in_flight_;
  std::map<std::string, prometheus::Histogram*> speedup_, memory_ratio_;  // key: level/baseline
  prometheus::Histogram* duration_ = nullptr;
  prometheus::Histogram* overhead_ = nullptr;
  prometheus::Gauge* queue_depth_ = nullptr;
  prometheus::Gauge* epoch_ = nullptr;
  prometheus::Gauge* heartbeat_ = nullptr;
  prometheus::Gauge* store_writable_ = nullptr;
  prometheus::Counter* store_write_failures_ = nullptr;
  prometheus::Gauge* unsaved_results_ = nullptr;
  prometheus::Gauge* control_clients_ = nullptr;
};

}  // namespace kbv::kbvd
