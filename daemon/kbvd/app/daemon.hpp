// kbvd's controller: start-up as numbered steps, signals turned into events on the one
// io_context, the control commands as a table, reload and draining shutdown.
//
// Start-up (run()), each step a method whose failure is logged with the step's name:
//   0  load the configuration           a bad file or option: exit 78 (EX_CONFIG)
//   1  set signal dispositions          SIGPIPE and SIGXFSZ become errors, not deaths
//   2  open the store                   state dir unusable: 78; another kbvd there: 1
//   3  find devices                     devices.kind cuda without a GPU: 78
//   4  serve metrics                    metrics.listen unusable: 78
//   5  give evaluators cgroups          never fails: off, with the reason, where cgroup v2 is not writable
//   6  recover interrupted evaluations  leftovers killed by cgroup (or process group); on a full disk the
//                                       rest waits for the store (store/store_health.hpp)
//   7  list the evaluator's problems    never fails: without the list, manifests' problems go unchecked
//   8  open the control socket          control.socket occupied (a file, another user's socket, a live
//                                       kbvd): 78
//   9  watch the folder
//  10  start the scheduler
//  11  handle signals                   SIGTERM/SIGINT drain, SIGHUP reloads, a second stop aborts the drain
//  12  notify readiness                 READY=1 to systemd
// Then the loop runs until the drain ends (exit 0) or an error escapes it (exit 1). Exit 78 stops
// systemd's restarts (RestartPreventExitStatus=78): a bad configuration does not fix itself.
// `kbvd --check-config` runs check_config(): steps 0 and 3 and the checks without side effects.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "config/live_config.hpp"
#include "control/server.hpp"
#include "metrics/metrics.hpp"
#include "sched/evaluator_cgroups.hpp"
#include "sched/scheduler.hpp"
#include "store/state_lock.hpp"
#include "store/store.hpp"
#include "store/store_health.hpp"
#include "watch/watcher.hpp"

namespace kbv::kbvd {

// Exit statuses of kbvd.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // a start-up step failed for another reason, or the loop did
inline constexpr int kExitConfig = 78;  // EX_CONFIG (sysexits.h): the configuration is wrong

class Daemon {
 public:
  explicit Daemon(CommandLine command_line);
  ~Daemon();
  int run();  // kExitOk after a clean drain, kExitConfig or kExitFailure otherwise

 private:
  // One control command: {"cmd": name, ...} -> its answer.
  struct Command {
    const char* name;
    const char* fields;     // what the request may carry besides cmd, for the error text
    bool while_draining;    // false: refused once a stop signal came
    nlohmann::json (Daemon::*handle)(const nlohmann::json& request);
  };
  static const std::vector<Command>& commands();

  void step_config();
  void step_signal_dispositions();
  void step_store();
  void step_devices();
  void step_metrics();
  void step_cgroups();
  void step_recover();
  void step_problems();
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
  nlohmann::json cmd_status(const nlohmann::json& request);
  nlohmann::json cmd_results(const nlohmann::json& request);
  nlohmann::json cmd_show(const nlohmann::json& request);
  nlohmann::json cmd_requeue(const nlohmann::json& request);
  nlohmann::json cmd_ingest(const nlohmann::json& request);

  CommandLine command_line_;
  boost::asio::io_context io_;
  std::optional<LiveConfig> config_;
  std::unique_ptr<StateLock> state_lock_;
  std::unique_ptr<Store> store_;
  std::vector<DeviceSlot> devices_;
  std::optional<EvaluatorCgroups> cgroups_;
  std::unique_ptr<Metrics> metrics_;
  std::unique_ptr<StoreHealth> health_;
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

// kbvd --check-config: loads the configuration and checks, without changing anything, that the
// devices are there, the state and watch folders can be made and written, the control socket's
// path is free or a stale socket, and the evaluator runs. Prints a summary or the problems;
// returns kExitOk or kExitConfig.
int check_config(const CommandLine& command_line);

}  // namespace kbv::kbvd
