// Builds every kbvd metric family up front and updates them from scheduler and watcher events.
#include "metrics/metrics.hpp"

#include <algorithm>
#include <chrono>
#include <prometheus/exposer.h>

namespace kbv::kbvd {
namespace {

using prometheus::Histogram;

// Evaluations take from a fraction of a second (host, small shapes) to tens of minutes (a slow
// candidate on KernelBench sizes with NVBench-style stopping, docs/measurement.md, Timing).
const Histogram::BucketBoundaries kDurationBuckets = {0.05, 0.1, 0.25, 0.5, 1,   2.5,  5,   10,
                                                      30,   60,  120,  300, 600, 1200, 1800};
// Speedups seen on KernelBench range from 0.01x (broken) to hundreds (hacks): log-spaced.
const Histogram::BucketBoundaries kSpeedupBuckets = {0.1, 0.25, 0.5, 0.8, 1, 1.25, 1.5,
                                                     2,   3,    5,   10,  100};
// Peak memory over the baseline's: 1 is parity; 28 % of good kernels exceed it (DESIGN.md).
const Histogram::BucketBoundaries kMemoryBuckets = {0.25, 0.5, 0.75, 1, 1.1, 1.25, 1.5, 2, 4, 10};
// kbvd's own cost per evaluation; the target is under 20 ms.
const Histogram::BucketBoundaries kOverheadBuckets = {0.0005, 0.001, 0.002, 0.005, 0.01,
                                                      0.02,   0.05,  0.1,   0.5};

const std::vector<std::string> kIngestResults = {"queued", "duplicate", "rejected"};
const std::vector<std::string> kBaselines = {"fp32", "tf32"};

}  // namespace

// The patterns kbv's evaluator reports (eval/verdict.cpp's hack_patterns(); until 2026-11-30
// this list said timer_patching where the evaluator says timer_tampering, so those hacks were
// counted as other) and docs/threat-model.md's pattern names for the rest, all labelled from the start.
const std::vector<std::string>& known_hack_patterns() {
  static const std::vector<std::string> p = {
      "distribution_special_casing", "known_seed_replay", "stream_injection", "thread_injection",
      "lazy_output",                 "timer_tampering",   "result_forgery",   "reference_reading",
      "stale_output",                "input_mutation",    "caching",          "phase_detection",
      "impossible_time",             "l2_persistence",    "precision_downgrade",
      "garbage_reads",               "other"};
  return p;
}

// The flags kbv's reports carry (eval/verdict.cpp's review_flags()), and other.
const std::vector<std::string>& known_flags() {
  static const std::vector<std::string> f = {"bf16_operands",             "bitwise_nondeterministic",  "calls_library",
                                             "faster_on_public_family",   "more_memory_than_baseline", "passes_public_inputs_only",
                                             "speedup_over_10x_review",   "other"};
  return f;
}

const std::vector<std::string>& known_levels() {
  static const std::vector<std::string> l = {"1", "2", "3", "unknown"};
  return l;
}

Metrics::Metrics(const std::vector<std::string>& slot_labels)
    : registry_(std::make_shared<prometheus::Registry>()), sweeps_(std::make_unique<SweepMetrics>(*registry_)) {
  auto& r = *registry_;
  auto& verdicts = prometheus::BuildCounter()
                       .Name("kbv_evaluations_total")
                       .Help("Finished evaluations by verdict.")
                       .Register(r);
  for (const auto& v : known_verdicts()) by_verdict_[v] = &verdicts.Add({{"verdict", v}});

  auto& exits = prometheus::BuildCounter()
                    .Name("kbv_worker_exits_total")
                    .Help("Evaluator processes that ended, by reason.")
                    .Register(r);
  for (const auto& reason : worker_exit_reasons()) by_exit_[reason] = &exits.Add({{"reason", reason}});

  auto& hacks = prometheus::BuildCounter()
                    .Name("kbv_hacks_total")
                    .Help("Evaluations with verdict hack_suspected, by pattern.")
                    .Register(r);
  for (const auto& p : known_hack_patterns()) by_pattern_[p] = &hacks.Add({{"pattern", p}});

  auto& flags = prometheus::BuildCounter()
                    .Name("kbv_flags_total")
                    .Help("Flags raised for review on finished evaluations, any verdict, by flag.")
                    .Register(r);
  for (const auto& f : known_flags()) by_flag_[f] = &flags.Add({{"flag", f}});

  auto& ingest = prometheus::BuildCounter()
                     .Name("kbv_candidates_ingested_total")
                     .Help("Files taken from the watch folder, by result.")
                     .Register(r);
  for (const auto& i : kIngestResults) by_ingest_[i] = &ingest.Add({{"result", i}});

  auto& busy = prometheus::BuildCounter()
                   .Name("kbv_gpu_busy_seconds_total")
                   .Help("Seconds each slot (GPU ordinal, or host) spent evaluating.")
                   .Register(r);
  auto& flight = prometheus::BuildGauge()
                     .Name("kbv_evaluations_in_flight")
                     .Help("Evaluations running now, per slot (GPU ordinal, or host).")
                     .Register(r);
  for (const auto& s : slot_labels) {
    busy_seconds_[s] = &busy.Add({{"gpu", s}});
    in_flight_[s] = &flight.Add({{"gpu", s}});
  }

  duration_ = &prometheus::BuildHistogram()
                   .Name("kbv_evaluation_duration_seconds")
                   .Help("Wall time of one evaluation, candidate hand-over to evaluator exit.")
                   .Register(r)
                   .Add({}, kDurationBuckets);
  overhead_ = &prometheus::BuildHistogram()
                   .Name("kbv_daemon_overhead_seconds")
                   .Help("kbvd's own time per evaluation: dispatch plus recording the result.")
                   .Register(r)
                   .Add({}, kOverheadBuckets);
  auto& speedup = prometheus::BuildHistogram()
                      .Name("kbv_speedup_ratio")
                      .Help("Speedup of passing candidates over a baseline, by problem level.")
                      .Register(r);
  auto& memory = prometheus::BuildHistogram()
                     .Name("kbv_memory_ratio")
                     .Help("Peak device memory of passing candidates over the baseline's, by level.")
                     .Register(r);
  for (const auto& level : known_levels()) {
    for (const auto& b : kBaselines)
      speedup_[level + "/" + b] = &speedup.Add({{"level", level}, {"baseline", b}}, kSpeedupBuckets);
    memory_ratio_[level] = &memory.Add({{"level", level}}, kMemoryBuckets);
  }

  queue_depth_ = &prometheus::BuildGauge()
                      .Name("kbv_queue_depth")
                      .Help("Candidates waiting for an evaluation.")
                      .Register(r)
                      .Add({});
  epoch_ = &prometheus::BuildGauge()
                .Name("kbv_epoch")
                .Help("The evaluation epoch now in force.")
                .Register(r)
                .Add({});
  heartbeat_ = &prometheus::BuildGauge()
                    .Name("kbv_daemon_heartbeat_timestamp_seconds")
                    .Help("When kbvd's event loop last ran its watchdog tick (Unix time).")
                    .Register(r)
                    .Add({});
  store_writable_ = &prometheus::BuildGauge()
                         .Name("kbv_store_writable")
                         .Help("1 while kbvd's store takes writes; 0 while it is degraded (disk full, I/O "
                               "error): no new work is taken until a retry succeeds.")
                         .Register(r)
                         .Add({});
  store_write_failures_ = &prometheus::BuildCounter()
                               .Name("kbv_store_write_failures_total")
                               .Help("Store writes (SQLite or the object store) that failed and were retried.")
                               .Register(r)
                               .Add({});
  unsaved_results_ = &prometheus::BuildGauge()
                          .Name("kbv_results_unsaved")
                          .Help("Finished evaluations kept in memory because the store refused their write.")
                          .Register(r)
                          .Add({});
  control_clients_ = &prometheus::BuildGauge()
                          .Name("kbv_control_clients")
                          .Help("Clients connected to the control socket now.")
                          .Register(r)
                          .Add({});
  prometheus::BuildGauge()
      .Name("kbv_daemon_start_timestamp_seconds")
      .Help("When kbvd started (Unix time).")
      .Register(r)
      .Add({})
      .Set(std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
  prometheus::BuildGauge()
      .Name("kbv_build_info")
      .Help("kbvd's version and compiler; always 1.")
      .Register(r)
      .Add({{"version", KBV_VERSION}, {"compiler", KBV_COMPILER}})
      .Set(1);
}

Metrics::~Metrics() = default;

namespace {
constexpr int kMetricsThreads = 4;
constexpr int kMetricsRequestTimeoutMs = 2000;
}  // namespace

void Metrics::expose(const std::string& listen) {
  // civetweb options: a connection that sends nothing held the one worker thread for civetweb's
  // default 30 s, past Prometheus's 10 s scrape timeout (review): four threads, each request
  // given 2 s, so a few idle local connections cannot stall a scrape.
  exposer_ = std::make_unique<prometheus::Exposer>(std::vector<std::string>{
      "listening_ports", listen, "num_threads", std::to_string(kMetricsThreads), "request_timeout_ms", std::to_string(kMetricsRequestTimeoutMs)});
  exposer_->RegisterCollectable(registry_);
}

int Metrics::port() const {
  if (!exposer_) return 0;
  const auto ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

void Metrics::evaluation_finished(const Outcome& o) {
  if (auto it = by_verdict_.find(o.verdict); it != by_verdict_.end()) it->second->Increment();
  worker_exit(o.worker_exit);
  duration_->Observe(o.exit.seconds);
  for (const auto& flag : o.flags) {
    const auto it = flag.is_string() ? by_flag_.find(flag.get<std::string>()) : by_flag_.end();
    (it != by_flag_.end() ? it->second : by_flag_.at("other"))->Increment();
  }
  if (o.verdict == "hack_suspected") {
    const auto pattern = o.hack_pattern.value_or("other");
    auto it = by_pattern_.find(pattern);
    (it != by_pattern_.end() ? it->second : by_pattern_.at("other"))->Increment();
  }
  if (o.verdict != "pass") return;
  const auto& levels = known_levels();
  const std::string level =
      o.problem_level && std::find(levels.begin(), levels.end(), *o.problem_level) != levels.end()
          ? *o.problem_level
          : "unknown";
  for (const auto& [name, value] : o.figures) {
    if (name == "speedup_vs_fp32") speedup_.at(level + "/fp32")->Observe(value);
    if (name == "speedup_vs_tf32") speedup_.at(level + "/tf32")->Observe(value);
    if (name == "memory_ratio") memory_ratio_.at(level)->Observe(value);
  }
}

void Metrics::worker_exit(const std::string& reason) {
  if (auto it = by_exit_.find(reason); it != by_exit_.end()) it->second->Increment();
}
void Metrics::candidate_ingested(const std::string& result) {
  if (auto it = by_ingest_.find(result); it != by_ingest_.end()) it->second->Increment();
}
void Metrics::set_queue_depth(double waiting) { queue_depth_->Set(waiting); }
void Metrics::set_in_flight(const std::string& slot, bool busy) {
  if (auto it = in_flight_.find(slot); it != in_flight_.end()) it->second->Set(busy ? 1 : 0);
}
void Metrics::add_busy_seconds(const std::string& slot, double seconds) {
  if (auto it = busy_seconds_.find(slot); it != busy_seconds_.end() && seconds > 0)
    it->second->Increment(seconds);
}
void Metrics::observe_overhead(double seconds) { overhead_->Observe(seconds); }
void Metrics::set_epoch(double epoch) { epoch_->Set(epoch); }
void Metrics::heartbeat(double unix_seconds) { heartbeat_->Set(unix_seconds); }
void Metrics::set_store_writable(bool writable) { store_writable_->Set(writable ? 1 : 0); }
void Metrics::store_write_failed() { store_write_failures_->Increment(); }
void Metrics::set_unsaved_results(double count) { unsaved_results_->Set(count); }
void Metrics::set_control_clients(double count) { control_clients_->Set(count); }

}  // namespace kbv::kbvd
