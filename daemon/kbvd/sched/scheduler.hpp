// Hands queued candidates to free slots (one evaluation per GPU at a time), keeps spares warm,
// and drains on shutdown.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "sched/slot.hpp"

namespace kbv::kbvd {

class Scheduler {
 public:
  Scheduler(boost::asio::io_context& io, Store& store, Metrics& metrics, const LiveConfig& config,
            const std::vector<DeviceSlot>& devices, EvaluatorCgroups& cgroups, StoreHealth& health);

  void start();
  void pump();  // dispatch what the queue holds to free slots
  // Stops dispatching; waits for in-flight work up to timeout_s, then kills and requeues it.
  void drain(double timeout_s, std::function<void()> drained);
  void abort_now();  // a second SIGTERM: requeue in-flight work at once
  void config_reloaded();
  bool draining() const { return draining_; }
  nlohmann::json status() const;

 private:
  void check_drained();
  void tick();

  boost::asio::io_context& io_;
  Store& store_;
  Metrics& metrics_;
  const LiveConfig& config_;
  StoreHealth& health_;
  std::vector<std::unique_ptr<Slot>> slots_;
  boost::asio::steady_timer tick_timer_, drain_timer_;
  std::function<void()> drained_;
  bool draining_ = false, pumping_ = false;
  std::int64_t epoch_ = -1;
};

}  // namespace kbv::kbvd
