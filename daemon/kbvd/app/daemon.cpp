// The daemon's start-up steps, signal handling, watchdog, control commands and shutdown.
#include "app/daemon.hpp"

#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <functional>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "sched/epoch.hpp"
#include "sched/proc_stat.hpp"

namespace kbv::kbvd {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

// Heartbeat (metric + systemd watchdog) period without a watchdog; with one, half of it (sd_watchdog_enabled(3)).
constexpr std::chrono::seconds kDefaultHeartbeat{15};
constexpr int kDefaultResultsLimit = 50;

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Fields that only a restart can change (they hold open sockets, files or metric label sets).
std::vector<std::string> restart_only_changes(const Config& a, const Config& b) {
  std::vector<std::string> changed;
  if (a.store.state_dir != b.store.state_dir) changed.push_back("store.state_dir");
  if (a.store.synchronous != b.store.synchronous) changed.push_back("store.synchronous");
  if (a.control.socket != b.control.socket) changed.push_back("control.socket");
  if (a.control.mode != b.control.mode) changed.push_back("control.mode");
  if (a.metrics.listen != b.metrics.listen) changed.push_back("metrics.listen");
  if (a.devices.kind != b.devices.kind || a.devices.gpus != b.devices.gpus ||
      a.devices.dev_dir != b.devices.dev_dir)
    changed.push_back("devices");
  return changed;
}
}  // namespace

void configure_logging(const std::string& level) {
  static bool sink_made = false;
  if (!sink_made) {
    auto logger = spdlog::stderr_color_mt("kbvd");
    spdlog::set_default_logger(logger);
    // Under systemd the journal adds time and unit; <N> prefixes carry the priority.
    if (std::getenv("JOURNAL_STREAM")) spdlog::set_pattern("%l: %v");
    else spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %l: %v");
    sink_made = true;
  }
  spdlog::set_level(spdlog::level::from_str(level));
  spdlog::flush_on(spdlog::level::info);
}

Daemon::Daemon(CommandLine command_line) : command_line_(std::move(command_line)) {}

Daemon::~Daemon() {
  // Children and sockets go before the io_context that owns their descriptors.
  control_.reset();
  watcher_.reset();
  scheduler_.reset();
}

int Daemon::run() {
  started_ = std::chrono::steady_clock::now();
  ::signal(SIGPIPE, SIG_IGN);  // a client or child that hangs up is an error code, not a death
  try {
    config_.emplace(load_config(command_line_.config_file, command_line_.overrides));
  } catch (const std::exception& e) {
    configure_logging("info");
    spdlog::critical("configuration: {}", e.what());
    return 1;
  }
  configure_logging(config_->get().log.level);

  const std::vector<std::pair<const char*, std::function<void()>>> steps = {
      {"open the store", [this] { step_store(); }},
      {"recover interrupted evaluations", [this] { step_recover(); }},
      {"find devices", [this] { step_devices(); }},
      {"serve metrics", [this] { step_metrics(); }},
      {"open the control socket", [this] { step_control(); }},
      {"watch the folder", [this] { step_watch(); }},
      {"start the scheduler", [this] { step_scheduler(); }},
      {"handle signals", [this] { step_signals(); }},
      {"notify readiness", [this] { step_ready(); }},
  };
  for (const auto& [name, step] : steps) {
    try {
      step();
    } catch (const std::exception& e) {
      spdlog::critical("start-up step '{}' failed: {}", name, e.what());
      return 1;
    }
  }
  try {
    io_.run();
  } catch (const std::exception& e) {
    spdlog::critical("stopping after an error: {}", e.what());
    sd_notifyf(0, "STATUS=failed: %s", e.what());
    return 1;
  }
  spdlog::info("kbvd stopped");
  return 0;
}

void Daemon::step_store() {
  const auto& cfg = config_->get();
  fs::create_directories(cfg.store.state_dir / "objects");
  state_lock_ = std::make_unique<StateLock>(cfg.store.state_dir);
  store_ = std::make_unique<Store>(cfg.store.state_dir / "kbvd.sqlite3", cfg.store.synchronous);
}

void Daemon::step_recover() {
  const auto report = store_->recover(config_->get().evaluator.max_attempts, unix_now());
  int killed = 0;
  for (const auto& p : report.leftovers) killed += kill_leftover_group(p.pgid, p.start_ticks) ? 1 : 0;
  if (report.requeued || report.given_up || killed)
    spdlog::warn("recovered from an interrupted run: {} evaluations requeued, {} given up after "
                 "evaluator.max_attempts, {} leftover process groups killed",
                 report.requeued, report.given_up, killed);
}

void Daemon::step_devices() {
  devices_ = discover_slots(config_->get().devices, std::getenv("CUDA_VISIBLE_DEVICES"));
  std::string labels;
  for (const auto& d : devices_) labels += (labels.empty() ? "" : ", ") + d.device + ":" + d.label;
  spdlog::info("evaluation slots: {}", labels);
}

void Daemon::step_metrics() {
  std::vector<std::string> labels;
  for (const auto& d : devices_) labels.push_back(d.label);
  metrics_ = std::make_unique<Metrics>(labels);
  const auto& listen = config_->get().metrics.listen;
  if (listen.empty()) return;
  try {
    metrics_->expose(listen);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("metrics.listen {}: cannot listen ({}); fix: choose a free "
                                         "port or \"\" to turn metrics off", listen, e.what()));
  }
  spdlog::info("metrics on http://{}/metrics (port {})", listen, metrics_->port());
}

void Daemon::step_control() {
  const auto& cfg = config_->get();
  control_ = std::make_unique<ControlServer>(io_, cfg.control.socket, cfg.control.mode,
                                             [this](const json& r) { return handle(r); });
}

void Daemon::step_watch() {
  ingestor_ = std::make_unique<Ingestor>(*store_, *metrics_, *config_);
  watcher_ = std::make_unique<Watcher>(io_, *ingestor_, *config_, [this] {
    if (scheduler_) scheduler_->pump();
  });
  watcher_->start();
}

void Daemon::step_scheduler() {
  scheduler_ = std::make_unique<Scheduler>(io_, *store_, *metrics_, *config_, devices_);
  scheduler_->start();
}

void Daemon::step_signals() {
  signals_ = std::make_unique<boost::asio::signal_set>(io_, SIGTERM, SIGINT, SIGHUP);
  signals_->async_wait([this](auto ec, int sig) {
    if (!ec) on_signal(sig);
  });
}

void Daemon::on_signal(int sig) {
  if (sig == SIGHUP) reload();
  else shutdown();
  if (signals_)
    signals_->async_wait([this](auto ec, int next) {
      if (!ec) on_signal(next);
    });
}

void Daemon::step_ready() {
  std::uint64_t watchdog_usec = 0;
  heartbeat_interval_ = kDefaultHeartbeat;
  if (sd_watchdog_enabled(0, &watchdog_usec) > 0)
    heartbeat_interval_ = std::min<std::chrono::steady_clock::duration>(
        kDefaultHeartbeat, std::chrono::microseconds(watchdog_usec / 2));
  heartbeat_timer_ = std::make_unique<boost::asio::steady_timer>(io_);
  heartbeat();
  sd_notifyf(0, "READY=1\nSTATUS=evaluating on %zu slot(s), watching %s", devices_.size(),
             config_->get().watch.dir.c_str());
  spdlog::info("kbvd {} ready: watching {}, control socket {}", KBV_VERSION,
               config_->get().watch.dir.string(), config_->get().control.socket.string());
}

void Daemon::heartbeat() {
  // The watchdog is fed from the loop only when the store answers: a wedged loop or a
  // locked database stops the pings and systemd restarts kbvd.
  const auto waiting = store_->waiting_count();
  metrics_->set_queue_depth(static_cast<double>(waiting));
  metrics_->heartbeat(unix_now());
  sd_notify(0, "WATCHDOG=1");
  heartbeat_timer_->expires_after(heartbeat_interval_);
  heartbeat_timer_->async_wait([this](auto ec) {
    if (!ec) heartbeat();
  });
}

void Daemon::reload() {
  sd_notify(0, "RELOADING=1");
  try {
    Config next = load_config(command_line_.config_file, command_line_.overrides);
    const auto& now = config_->get();
    for (const auto& field : restart_only_changes(now, next))
      spdlog::warn("reload: {} changed; it takes effect after a restart", field);
    next.store = now.store;
    next.control = now.control;
    next.metrics = now.metrics;
    next.devices = now.devices;
    config_->replace(std::move(next));
    configure_logging(config_->get().log.level);
    watcher_->reload();
    scheduler_->config_reloaded();
    spdlog::info("configuration reloaded from {}", command_line_.config_file.string());
  } catch (const std::exception& e) {
    spdlog::error("reload failed, keeping the running configuration: {}", e.what());
  }
  sd_notify(0, "READY=1");
}

void Daemon::shutdown() {
  if (stopping_) {
    spdlog::warn("second stop signal: requeueing in-flight evaluations now");
    scheduler_->abort_now();
    return;
  }
  stopping_ = true;
  sd_notify(0, "STOPPING=1");
  const double timeout = config_->get().shutdown.drain_timeout_s;
  spdlog::info("stopping: draining in-flight evaluations (up to {} s)", timeout);
  watcher_->stop();
  scheduler_->drain(timeout, [this] {
    control_->stop();
    if (heartbeat_timer_) heartbeat_timer_->cancel();
    boost::system::error_code ignored;
    if (signals_) signals_->cancel(ignored);
    signals_.reset();
    io_.stop();
  });
}

json Daemon::status() {
  const auto& cfg = config_->get();
  json s;
  s["ok"] = true;
  s["version"] = KBV_VERSION;
  s["pid"] = ::getpid();
  s["uptime_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  s["config_file"] = cfg.file.string();
  s["watch_dir"] = cfg.watch.dir.string();
  s["state_dir"] = cfg.store.state_dir.string();
  s["control_socket"] = cfg.control.socket.string();
  s["metrics_listen"] = cfg.metrics.listen;
  s["metrics_port"] = metrics_->port();
  s["evaluator"] = cfg.evaluator.command.string();
  const auto epoch = epoch_at(cfg.epoch, std::chrono::system_clock::now());
  s["epoch"] = epoch.number;
  s["epoch_ends_at"] = epoch.ends_at_unix_s;
  s["draining"] = stopping_;
  s["queue"] = {{"waiting", store_->waiting_count()}, {"running", store_->running_count()},
                {"max_depth", cfg.queue.max_depth}};
  s["slots"] = scheduler_->status();
  s["totals"] = store_->verdict_totals();
  return s;
}

json Daemon::handle(const json& request) {
  const auto cmd = request.value("cmd", std::string());
  try {
    if (cmd == "status") return status();
    if (cmd == "results") {
      return {{"ok", true},
              {"results", store_->results_list(request.value("limit", kDefaultResultsLimit),
                                               request.value("verdict", std::string()),
                                               request.value("state", std::string()))}};
    }
    if (cmd == "show") {
      auto shown = store_->results_show(request.value("id", std::string()));
      shown["ok"] = true;
      return shown;
    }
    if (cmd == "requeue") {
      if (stopping_) return {{"ok", false}, {"error", "kbvd is stopping"}};
      auto answer = store_->requeue(request.value("id", std::string()), unix_now());
      answer["ok"] = true;
      scheduler_->pump();
      return answer;
    }
    if (cmd == "ingest") {
      if (stopping_) return {{"ok", false}, {"error", "kbvd is stopping"}};
      const auto name = request.value("name", std::string());
      if (!is_candidate_name(name))
        return {{"ok", false}, {"error", fmt::format("'{}' is not a candidate file name (NAME.so, "
                                                     "no folder, not hidden)", name)}};
      const auto r = ingestor_->ingest(name);
      if (r.status == IngestStatus::queued) scheduler_->pump();
      if (r.status == IngestStatus::vanished || r.status == IngestStatus::not_candidate)
        return {{"ok", false}, {"error", r.message.empty() ? "no such file in the watch folder" : r.message}};
      json answer = {{"ok", true}, {"result", to_string(r.status)}, {"sha256", r.sha256},
                     {"message", r.message}};
      if (!r.sha256.empty()) {
        const auto shown = store_->results_show(r.sha256);
        answer["candidate_id"] = shown["candidate_id"];
        answer["state"] = shown["state"];
      }
      return answer;
    }
  } catch (const NotFound& e) {
    return {{"ok", false}, {"error", e.what()}};
  }
  return {{"ok", false},
          {"error", fmt::format("unknown command '{}': use status, results, show, requeue or ingest", cmd)}};
}

}  // namespace kbv::kbvd
