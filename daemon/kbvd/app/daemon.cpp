// The daemon's start-up steps, signal handling, watchdog, control commands and shutdown.
#include "app/daemon.hpp"

#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <functional>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "client/control_client.hpp"
#include "client/printable.hpp"
#include "identity/manifest.hpp"
#include "sched/epoch.hpp"
#include "sched/evaluator_problems.hpp"
#include "sched/outcome.hpp"
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
  if (a.control.max_clients != b.control.max_clients) changed.push_back("control.max_clients");
  if (a.control.idle_timeout_s != b.control.idle_timeout_s) changed.push_back("control.idle_timeout_s");
  if (a.metrics.listen != b.metrics.listen) changed.push_back("metrics.listen");
  if (a.devices.kind != b.devices.kind || a.devices.gpus != b.devices.gpus ||
      a.devices.dev_dir != b.devices.dev_dir)
    changed.push_back("devices");
  return changed;
}

// The nearest folder of `path` that exists (itself when it does).
fs::path existing_ancestor(fs::path path) {
  std::error_code ec;
  while (!path.empty() && !fs::exists(path, ec) && path.has_parent_path() && path.parent_path() != path)
    path = path.parent_path();
  return path;
}

// Empty when kbvd can use `dir` (write in it, or make it); else what stands in the way.
std::string folder_problem(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) return fmt::format("{} is not a folder", dir.string());
    if (::access(dir.c_str(), W_OK | X_OK) != 0) return fmt::format("{} is not writable by kbvd's user", dir.string());
    return "";
  }
  const fs::path ancestor = existing_ancestor(dir);
  if (::access(ancestor.c_str(), W_OK | X_OK) != 0)
    return fmt::format("{} does not exist and {} is not writable by kbvd's user", dir.string(), ancestor.string());
  return "";
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
  const std::vector<std::pair<const char*, std::function<void()>>> steps = {
      {"load the configuration", [this] { step_config(); }},
      {"set signal dispositions", [this] { step_signal_dispositions(); }},
      {"open the store", [this] { step_store(); }},
      {"find devices", [this] { step_devices(); }},
      {"serve metrics", [this] { step_metrics(); }},
      {"give evaluators cgroups", [this] { step_cgroups(); }},
      {"recover interrupted evaluations", [this] { step_recover(); }},
      {"list the evaluator's problems", [this] { step_problems(); }},
      {"open the control socket", [this] { step_control(); }},
      {"watch the folder", [this] { step_watch(); }},
      {"start the scheduler", [this] { step_scheduler(); }},
      {"handle signals", [this] { step_signals(); }},
      {"notify readiness", [this] { step_ready(); }},
  };
  for (std::size_t number = 0; number < steps.size(); ++number) {
    const auto& [name, step] = steps[number];
    try {
      step();
    } catch (const ConfigError& e) {
      configure_logging(config_ ? config_->get().log.level : "info");
      spdlog::critical("start-up step {} ({}) failed: {}", number, name, e.what());
      sd_notifyf(0, "STATUS=configuration error: %s", e.what());
      return kExitConfig;
    } catch (const std::exception& e) {
      configure_logging(config_ ? config_->get().log.level : "info");
      spdlog::critical("start-up step {} ({}) failed: {}", number, name, e.what());
      return kExitFailure;
    }
  }
  try {
    io_.run();
  } catch (const std::exception& e) {
    spdlog::critical("stopping after an error: {}", e.what());
    sd_notifyf(0, "STATUS=failed: %s", e.what());
    return kExitFailure;
  }
  spdlog::info("kbvd stopped");
  return kExitOk;
}

void Daemon::step_config() {
  config_.emplace(load_config(command_line_.config_file, command_line_.overrides));
  configure_logging(config_->get().log.level);
}

void Daemon::step_signal_dispositions() {
  // A client or child that hangs up is an error code, not a death; so is a write past
  // RLIMIT_FSIZE (EFBIG: the store degrades and retries).
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGXFSZ, SIG_IGN);
}

void Daemon::step_store() {
  const auto& cfg = config_->get();
  if (const auto problem = folder_problem(cfg.store.state_dir); !problem.empty())
    throw ConfigError(fmt::format("store.state_dir: {}; fix: create it for kbvd's user, or set store.state_dir "
                                  "(systemd's StateDirectory=kbvd makes /var/lib/kbvd)", problem));
  fs::create_directories(cfg.store.state_dir / "objects");
  state_lock_ = std::make_unique<StateLock>(cfg.store.state_dir);
  store_ = std::make_unique<Store>(cfg.store.state_dir / "kbvd.sqlite3", cfg.store.synchronous);
  // The candidates kbvd evaluates and the verdicts it keeps are kbvd's alone: a group member who
  // could rename over objects/<sha>.so, or replace the database, would have their own code judged
  // under another's candidate, or forge every verdict (review). SQLite gives its -wal and -shm
  // files the database's mode.
  std::error_code ignored;
  fs::permissions(cfg.store.state_dir / "objects", fs::perms::owner_all, ignored);
  for (const char* file : {"kbvd.sqlite3", "kbvd.sqlite3-wal", "kbvd.sqlite3-shm"})
    fs::permissions(cfg.store.state_dir / file, fs::perms::owner_read | fs::perms::owner_write, ignored);
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
  health_ = std::make_unique<StoreHealth>(io_, *store_, *metrics_);
  const auto& listen = config_->get().metrics.listen;
  if (listen.empty()) return;
  try {
    metrics_->expose(listen);
  } catch (const std::exception& e) {
    throw ConfigError(fmt::format("metrics.listen {}: cannot listen ({}); fix: choose a free "
                                  "port or \"\" to turn metrics off", listen, e.what()));
  }
  spdlog::info("metrics on http://{}/metrics (port {})", listen, metrics_->port());
}

void Daemon::step_cgroups() {
  cgroups_.emplace(EvaluatorCgroups::probe());
  if (cgroups_->enabled())
    spdlog::info("each evaluator runs in a cgroup of its own below {}", cgroups_->parent()->string());
  else
    spdlog::warn("evaluators get no cgroup of their own ({}): they are ended by process group and "
                 "PR_SET_PDEATHSIG only; fix: run kbvd where it may make cgroup v2 groups (systemd: Delegate=yes)",
                 cgroups_->why_off());
}

void Daemon::step_recover() {
  // Whatever a killed kbvd left running is ended first: by the cgroups it recorded (each
  // evaluator with its worker and whatever the candidate started), by the abandoned groups
  // below ours, and by process group where there was no cgroup. These only read the store.
  int in_cgroups = 0, groups = 0;
  for (const auto& p : store_->leftovers()) {
    if (!p.cgroup.empty()) {
      in_cgroups += std::max(0, lifetime::kill_abandoned_cgroup(p.cgroup));  // -1: a live process owns that name now
    } else {
      groups += kill_leftover_group(p.pgid, p.start_ticks) ? 1 : 0;
    }
  }
  in_cgroups += cgroups_->sweep_abandoned();
  if (in_cgroups || groups)
    spdlog::warn("killed what an interrupted run left: {} processes in its evaluators' cgroups, {} process "
                 "groups", in_cgroups, groups);
  const int max_attempts = config_->get().evaluator.max_attempts;
  const auto recover = [this, max_attempts] {
    const auto report = store_->recover(max_attempts, unix_now());
    if (report.requeued || report.given_up)
      spdlog::warn("recovered from an interrupted run: {} evaluations requeued ({} of them waiting in a batch, not yet begun: "
                   "attempt not counted), {} given up after evaluator.max_attempts", report.requeued, report.not_begun, report.given_up);
  };
  if (!health_->attempt("recover interrupted evaluations", recover)) health_->recovery_pending(recover);
}

void Daemon::step_problems() {
  ingestor_ = std::make_unique<Ingestor>(*store_, *metrics_, *config_);
  auto problems = list_evaluator_problems(config_->get().evaluator);
  if (problems.names)
    spdlog::info("the evaluator knows {} problems", problems.names->size());
  else
    spdlog::warn("{}; a manifest's problem: goes unchecked until the evaluator answers (SIGHUP asks again)",
                 problems.error);
  ingestor_->set_known_problems(std::move(problems.names));
}

void Daemon::step_control() {
  const auto& cfg = config_->get();
  ControlLimits limits;
  limits.max_clients = static_cast<std::size_t>(cfg.control.max_clients);
  limits.idle_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(cfg.control.idle_timeout_s * 1000));
  try {
    control_ = std::make_unique<ControlServer>(io_, cfg.control.socket, cfg.control.mode,
                                               [this](const json& r) { return handle(r); }, limits);
  } catch (const std::runtime_error& e) {
    throw ConfigError(e.what());  // the path is occupied or unusable: a restart will not help
  }
}

void Daemon::step_watch() {
  watcher_ = std::make_unique<Watcher>(io_, *ingestor_, *config_, *health_, [this] {
    if (scheduler_) scheduler_->pump();
  });
  watcher_->start();
}

void Daemon::step_scheduler() {
  scheduler_ = std::make_unique<Scheduler>(io_, *store_, *metrics_, *config_, devices_, *cgroups_, *health_);
  health_->on_resumed([this] {
    if (stopping_) return;
    scheduler_->pump();
    watcher_->rescan();
  });
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
  // locked database stops the pings and systemd restarts kbvd. A full disk does not: reads work.
  const auto waiting = store_->waiting_count();
  metrics_->set_queue_depth(static_cast<double>(waiting));
  metrics_->set_control_clients(static_cast<double>(control_ ? control_->clients() : 0));
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
    // Checked before anything is replaced, as start-up checks it: a watch folder kbvd cannot use
    // would otherwise take the daemon down at the next rescan.
    if (const auto problem = folder_problem(next.watch.dir); !problem.empty())
      throw ConfigError(fmt::format("watch.dir: {}; fix: create it for kbvd's user or choose another path", problem));
    for (const auto& field : restart_only_changes(now, next))
      spdlog::warn("reload: {} changed; it takes effect after a restart", field);
    next.store = now.store;
    next.control = now.control;
    next.metrics = now.metrics;
    next.devices = now.devices;
    config_->replace(std::move(next));
    configure_logging(config_->get().log.level);
    auto problems = list_evaluator_problems(config_->get().evaluator);
    if (!problems.names) spdlog::warn("{}; a manifest's problem: goes unchecked", problems.error);
    ingestor_->set_known_problems(std::move(problems.names));
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

const std::vector<Daemon::Command>& Daemon::commands() {
  static const std::vector<Command> table = {
      {"status", "", true, &Daemon::cmd_status},
      {"results", "limit, verdict, state", true, &Daemon::cmd_results},
      {"show", "id", true, &Daemon::cmd_show},
      {"requeue", "id", false, &Daemon::cmd_requeue},
      {"ingest", "name", false, &Daemon::cmd_ingest},
      {"sweep", "sweep, epoch, state, planned, done, complete, headline", true, &Daemon::cmd_sweep},
  };
  return table;
}

json Daemon::handle(const json& request) {
  // The fields every command reads as text: one of another type is named, not a JSON library error.
  for (const char* field : {"cmd", "id", "name"})
    if (request.is_object() && request.contains(field) && !request[field].is_string())
      return {{"ok", false}, {"error", fmt::format("{} must be a string", field)}};
  const auto cmd = request.value("cmd", std::string());
  for (const auto& command : commands()) {
    if (cmd != command.name) continue;
    if (stopping_ && !command.while_draining) return {{"ok", false}, {"error", "kbvd is stopping"}, {"retry", true}};
    try {
      return (this->*command.handle)(request);
    } catch (const NotFound& e) {
      return {{"ok", false}, {"error", e.what()}};
    }
  }
  std::string known;
  for (const auto& command : commands())
    known += fmt::format("{}{}{}", known.empty() ? "" : ", ", command.name,
                         *command.fields ? fmt::format(" ({})", command.fields) : "");
  return {{"ok", false}, {"error", fmt::format("unknown command '{}': use {}", printable(cmd), known)}};
}

json Daemon::cmd_status(const json&) {
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
  s["control_clients"] = control_ ? control_->clients() : 0;
  s["metrics_listen"] = cfg.metrics.listen;
  s["metrics_port"] = metrics_->port();
  s["evaluator"] = cfg.evaluator.command.string();
  s["cgroups"] = cgroups_->enabled() ? json(cgroups_->parent()->string()) : json(nullptr);
  const auto epoch = epoch_at(cfg.epoch, std::chrono::system_clock::now());
  s["epoch"] = epoch.number;
  s["epoch_ends_at"] = epoch.ends_at_unix_s;
  s["draining"] = stopping_;
  s["store"] = health_->status();
  s["queue"] = {{"waiting", store_->waiting_count()}, {"running", store_->running_count()},
                {"max_depth", cfg.queue.max_depth}};
  s["slots"] = scheduler_->status();
  s["totals"] = store_->verdict_totals();
  return s;
}

json Daemon::cmd_results(const json& request) {
  // A limit outside 1..kMaxResultsListed, or not a whole number, is the client's error, not a
  // quietly clamped list.
  constexpr std::int64_t kMaxResultsLimit = control::kMaxResultsListed;
  if (request.contains("limit")) {
    const json& limit = request["limit"];
    if (!limit.is_number_integer() || limit.get<std::int64_t>() < 1 || limit.get<std::int64_t>() > kMaxResultsLimit)
      throw NotFound(fmt::format("limit must be a whole number from 1 to {}, got {}", kMaxResultsLimit, printable(limit.is_primitive() ? limit.dump() : std::string(limit.type_name()))));
  }
  for (const char* field : {"verdict", "state"})
    if (request.contains(field) && !request[field].is_string()) throw NotFound(fmt::format("{} must be a string", field));
  // A misspelt verdict would match nothing and look like an empty store.
  if (const std::string verdict = request.value("verdict", std::string()); !verdict.empty()) {
    const auto& known = known_verdicts();
    if (std::find(known.begin(), known.end(), verdict) == known.end()) {
      std::string listed;
      for (const auto& name : known) listed += (listed.empty() ? "" : ", ") + name;
      throw NotFound(fmt::format("unknown verdict '{}'; use one of {}", printable(verdict), listed));
    }
  }
  return {{"ok", true},
          {"results", store_->results_list(request.value("limit", kDefaultResultsLimit),
                                           request.value("verdict", std::string()),
                                           request.value("state", std::string()))}};
}

json Daemon::cmd_show(const json& request) {
  auto shown = store_->results_show(request.value("id", std::string()));
  shown["ok"] = true;
  return shown;
}

json Daemon::cmd_requeue(const json& request) {
  const auto shown = store_->results_show(request.value("id", std::string()));
  // The queue's bound holds for requeues as for drops (review: one client could requeue every
  // finished candidate past it).
  if (const auto& cfg = config_->get(); static_cast<std::uint64_t>(store_->waiting_count()) >= cfg.queue.max_depth)
    return {{"ok", false}, {"retry", true}, {"error", fmt::format("the queue holds queue.max_depth ({}) candidates; requeue when it has room", cfg.queue.max_depth)}};
  // The manifest beside the file as dropped is read again: a fixed manifest (an unknown problem
  // corrected) is what the new evaluation runs with.
  std::optional<Manifest> manifest;
  try {
    manifest = load_manifest_beside(config_->get().watch.dir / shown["name"].get<std::string>());
  } catch (const ManifestError& e) {
    return {{"ok", false}, {"error", printable(e.what())}};
  }
  // As at ingest: an unknown problem is refused now, not evaluated into a bad_input.
  if (manifest)
    if (auto refusal = ingestor_->unknown_problem(config_->get().watch.dir / shown["name"].get<std::string>(), *manifest))
      return {{"ok", false}, {"error", *refusal}};
  json answer;
  const bool written = health_->attempt("requeue a candidate", [&] {
    if (manifest) store_->refresh_manifest(shown["sha256"], *manifest, ManifestSource::requeue, unix_now());
    answer = store_->requeue(shown["sha256"], unix_now());
  });
  if (!written)
    return {{"ok", false}, {"retry", true}, {"error", "the store cannot be written now (" + health_->status()["error"].get<std::string>() +
                                         "); kbvd retries by itself: requeue once `kbv status` shows it writable"}};
  answer["ok"] = true;
  scheduler_->pump();
  return answer;
}

// `kbv sweep` reports its progress and, when it finishes, its headline figures (metrics only).
json Daemon::cmd_sweep(const json& request) {
  try {
    metrics_->sweeps().update(request);
  } catch (const SweepMessageError& e) {
    return {{"ok", false}, {"error", e.what()}};
  }
  return {{"ok", true}};
}

json Daemon::cmd_ingest(const json& request) {
  const auto name = request.value("name", std::string());
  if (!is_candidate_name(name))
    return {{"ok", false}, {"error", fmt::format("'{}' is not a candidate file name (NAME.so, no folder, not hidden)",
                                                 printable(name))}};
  if (!health_->writable())
    return {{"ok", false}, {"retry", true}, {"error", "the store cannot be written now (" + health_->status()["error"].get<std::string>() +
                                         "); the file waits in the watch folder and is taken once it can be"}};
  IngestReport r;
  try {
    r = ingestor_->ingest(name);
  } catch (const ObjectStoreFull& e) {
    health_->failed("copy a candidate into the object store", e.what());
    return {{"ok", false}, {"error", printable(e.what()) + "; the file waits in the watch folder"}};
  } catch (const sqlite::Error& e) {
    if (!e.transient()) throw;
    health_->failed("record a candidate", e.what());
    return {{"ok", false}, {"error", printable(e.what()) + "; the file waits in the watch folder"}};
  }
  if (r.status == IngestStatus::queued || r.status == IngestStatus::requeued) scheduler_->pump();
  if (r.status == IngestStatus::vanished || r.status == IngestStatus::not_candidate)
    return {{"ok", false}, {"error", r.message.empty() ? "no such file in the watch folder" : r.message}};
  json answer = {{"ok", true}, {"result", to_string(r.status)}, {"sha256", r.sha256}, {"message", r.message}};
  if (!r.sha256.empty()) {
    const auto shown = store_->results_show(r.sha256);
    answer["candidate_id"] = shown["candidate_id"];
    answer["state"] = shown["state"];
  }
  return answer;
}

int check_config(const CommandLine& command_line) {
  Config config;
  try {
    config = load_config(command_line.config_file, command_line.overrides);
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "kbvd: %s\n", e.what());
    return kExitConfig;
  }
  std::vector<std::string> problems;
  std::vector<DeviceSlot> slots;
  try {
    slots = discover_slots(config.devices, std::getenv("CUDA_VISIBLE_DEVICES"));
  } catch (const ConfigError& e) {
    problems.push_back(e.what());
  }
  for (const auto& [field, dir] : {std::pair<const char*, fs::path>{"store.state_dir", config.store.state_dir},
                                   {"watch.dir", config.watch.dir},
                                   {"control.socket's folder", config.control.socket.parent_path()}})
    if (const auto problem = folder_problem(dir); !problem.empty())
      problems.push_back(fmt::format("{}: {}; fix: create it for kbvd's user or choose another path", field, problem));
  struct stat socket_stat {};
  if (::lstat(config.control.socket.c_str(), &socket_stat) == 0 && !S_ISSOCK(socket_stat.st_mode))
    problems.push_back(fmt::format("control.socket: {} exists and is not a socket (kbvd never removes it); fix: "
                                   "set control.socket to a free path", config.control.socket.string()));
  const auto evaluator = list_evaluator_problems(config.evaluator);
  if (!evaluator.names) problems.push_back("evaluator.command: " + evaluator.error);
  if (!problems.empty()) {
    for (const auto& problem : problems) std::fprintf(stderr, "kbvd: %s\n", problem.c_str());
    return kExitConfig;
  }
  std::string devices;
  for (const auto& d : slots) devices += (devices.empty() ? "" : ", ") + d.device + ":" + d.label;
  std::printf("kbvd: configuration OK (%s): watch %s, state %s, socket %s, evaluator %s (%zu problems), slots %s\n",
              config.file.empty() ? "built-in defaults" : config.file.c_str(), config.watch.dir.c_str(),
              config.store.state_dir.c_str(), config.control.socket.c_str(), config.evaluator.command.c_str(),
              evaluator.names->size(), devices.c_str());
  return kExitOk;
}

}  // namespace kbv::kbvd
