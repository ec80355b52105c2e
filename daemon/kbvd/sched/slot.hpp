// One evaluation slot (a GPU, or the host): runs one evaluator at a time (one candidate, or a batch
// of one problem evaluated in turn) and keeps a warm spare evaluator started so the next candidate
// does not wait for CUDA start-up.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "config/live_config.hpp"
#include "metrics/metrics.hpp"
#include "sched/child.hpp"
#include "sched/devices.hpp"
#include "sched/evaluator_cgroups.hpp"
#include "store/store.hpp"
#include "store/store_health.hpp"

namespace kbv::kbvd {

class Slot {
 public:
  using Idle = std::function<void()>;  // the slot can take the next job

  Slot(boost::asio::io_context& io, DeviceSlot device, Store& store, Metrics& metrics,
       const LiveConfig& config, EvaluatorCgroups& cgroups, StoreHealth& health, Idle on_idle);
  ~Slot();
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

  const DeviceSlot& device() const { return device_; }
  bool can_take() const;  // idle, not draining, evaluator not known to be broken
  bool quiescent() const { return !active_ && !spare_; }

  // Hands the jobs (their evaluation rows already running; more than one only when
  // batch_capacity() allowed it, all of one problem) to the spare, which evaluates them in turn
  // and prints a verdict line for each, or the first to a fresh evaluator (the rest go back).
  void start(const std::vector<Job>& jobs);
  // How many jobs start() can hand over at once: evaluator.batch with a warm spare of `epoch`, else 1.
  std::size_t batch_capacity(std::int64_t epoch) const;
  // Starts a warm spare if configured and none is there.
  void ensure_spare();
  // Shutdown: no more spares; the one there is ended.
  void stop_spares();
  // Shutdown past the drain timeout: kill the evaluation and requeue its candidate.
  void abort_running();
  // The configuration or epoch changed: the spare was started with old arguments.
  void retire_spare();
  // Adds busy time up to now to kbv_gpu_busy_seconds_total.
  void account_busy();

  nlohmann::json status() const;

 private:
  bool spare_fits(std::int64_t epoch) const;
  void finish(const ChildResult& result);
  // A verdict line of a batch: its job is recorded, the next one's deadline starts.
  void line_from_evaluator(const std::string& line);
  // The deadline and hand-over time of the job at the front.
  void begin_current();
  void record(const Job& job, const Outcome& outcome, double seconds, std::chrono::steady_clock::time_point t0);
  void spare_ended(const std::shared_ptr<Child>& child, const ChildResult& result);
  void back_off(const std::string& why, bool broken);
  // Back to the queue without counting the attempt; kept for later when the store refuses.
  void requeue(const Job& job, const std::string& note);

  boost::asio::io_context& io_;
  DeviceSlot device_;
  Store& store_;
  Metrics& metrics_;
  const LiveConfig& config_;
  EvaluatorCgroups& cgroups_;
  StoreHealth& health_;
  Idle on_idle_;

  std::shared_ptr<Child> spare_;
  std::int64_t spare_epoch_ = -1;
  int spare_generation_ = -1;
  bool spares_allowed_ = true;

  std::shared_ptr<Child> active_;
  std::deque<Job> jobs_;  // the evaluator's jobs in order; the front one is being evaluated
  bool timed_out_ = false, aborted_ = false;
  std::chrono::steady_clock::time_point handed_over_, busy_accounted_;
  boost::asio::steady_timer deadline_;

  boost::asio::steady_timer backoff_timer_;
  std::chrono::seconds backoff_{0};
  bool backing_off_ = false;     // no spare until the timer fires
  bool evaluator_broken_ = false;  // no evaluation either: the evaluator would not start
  double dispatch_seconds_ = 0;
  std::string last_error_;
};

}  // namespace kbv::kbvd
