// kbvd's controller: start-up as an ordered list of steps, signals turned into events on the
// one io_context, the control commands, reload and draining shutdown.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/command_line.hpp"
#include "config/live_config.hpp"
#include "control/server.hpp"
#include "metrics/metrics.hpp"
#include "sched/scheduler.hpp"
#include "store/state_lock.hpp"
#include "store/store.hpp"
#include "watch/watcher.hpp"

namespace kbv::kbvd {

class Daemon {
 public:
  explicit Daemon(CommandLine command_line);
  ~Daemon();
  int run();  // 0 after a clean drain, 1 when a start-up step failed

 private:
  void step_store();
  void step_recover();
  void step_devices();
  void step_metrics();
  void step_control();
  void step_watch();
  void step_scheduler();
  void step_signals();
  void step_ready();

  void on_signal(int signal);
  void reload();
  void shutdown();
  void heartbeat();
  nlohmann::json handle(const nlohmann::json& request);
  nlohmann::json status();

  CommandLine command_line_;
  boost::asio::io_context io_;
  std::optional<LiveConfig> config_;
  std::unique_ptr<StateLock> state_lock_;
  std::unique_ptr<Store> store_;
  std::vector<DeviceSlot> devices_;
  std::unique_ptr<Metrics> metrics_;
  std::unique_ptr<Ingestor> ingestor_;
  std::unique_ptr<Watcher> watcher_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<boost::asio::signal_set> signals_;
  std::unique_ptr<boost::asio::steady_timer> heartbeat_timer_;
  std::chrono::steady_clock::duration heartbeat_interval_{};
  std::chrono::steady_clock::time_point started_;
  bool stopping_ = false;
};

// Applies log.level and a journald-friendly pattern when stderr goes to the journal.
void configure_logging(const std::string& level);

}  // namespace kbv::kbvd
