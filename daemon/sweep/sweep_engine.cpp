// daemon/sweep/sweep_engine.cpp — the steps of one sweep run (see sweep_engine.hpp).
#include "sweep/sweep_engine.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "client/control_client.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/secret_key.hpp"
#include "spec/catalog.hpp"
#include "sweep/candidate_discovery.hpp"
#include "sweep/kbvd_progress.hpp"
#include "sweep/kbvd_runner.hpp"
#include "sweep/plan.hpp"
#include "sweep/progress.hpp"
#include "sweep/report/report_builder.hpp"
#include "sweep/report/report_sources.hpp"
#include "sweep/report/report_writer.hpp"
#include "sweep/result_record.hpp"
#include "sweep/standalone_runner.hpp"
#include "sweep/sweep_folder.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kExitComplete = 0;
constexpr int kExitIncomplete = 1;
constexpr int kExitBadInput = 2;

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler stores to it");

extern "C" void request_stop(int) { g_stop.store(true); }

// SIGINT and SIGTERM ask the sweep to stop (finished verdicts are kept) for as long as it lives.
class StopSignals {
 public:
  StopSignals() {
    g_stop.store(false);
    struct sigaction action {};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &old_int_);
    ::sigaction(SIGTERM, &action, &old_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// An exclusive flock held for the sweep's life: one sweep per shard of an epoch and folder.
class FolderLock {
 public:
  explicit FolderLock(const fs::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw std::runtime_error(fmt::format("{}: cannot create the lock file; fix: check output_dir's permissions", path.string()));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      fd_ = -1;
      throw std::runtime_error(fmt::format("{}: another kbv sweep is running this shard of this epoch in the same output folder; "
                                           "fix: wait for it to finish, or give this sweep another output_dir",
                                           path.string()));
    }
  }
  ~FolderLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_;
};

std::string utc_text(std::chrono::system_clock::time_point when) {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", std::chrono::floor<std::chrono::seconds>(when));
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string();
}

void apply_overrides(const SweepOptions& options, SweepConfig& config) {
  if (options.mode) config.mode = *options.mode;
  if (options.epoch) config.epoch = *options.epoch;
  if (options.output_dir) config.output_dir = fs::absolute(*options.output_dir);
  if (options.socket) config.kbvd.socket = *options.socket;
  if (options.key_file) config.standalone.key_file = fs::absolute(*options.key_file);
  if (options.device) config.standalone.device = *options.device;
  if (options.gpus) config.standalone.gpus = *options.gpus;
  if (options.jobs) config.standalone.jobs = *options.jobs;
  if (options.budget_evaluations) config.budget.evaluations = *options.budget_evaluations;
  if (options.budget_wall_s) config.budget.wall_s = *options.budget_wall_s;
  if (config.kbvd.socket.empty()) config.kbvd.socket = control::default_socket_path();
}

json shard_status(const Plan& plan, const ShardSpec& shard, const std::string& state, std::chrono::system_clock::time_point started,
                  std::size_t planned, std::size_t evaluated, const std::string& stopped_because) {
  return {{"schema", "kbv.sweep.shard"},
          {"schema_version", 1},
          {"plan_id", plan.plan_id},
          {"epoch", plan.epoch},
          {"shard", {{"index", shard.index}, {"count", shard.count}}},
          {"state", state},
          {"started_at", utc_text(started)},
          {"updated_at", utc_text(std::chrono::system_clock::now())},
          {"host", host_name()},
          {"pid", ::getpid()},
          {"key_id", plan.key_id},
          {"kbv_version", KBV_VERSION},
          {"planned", planned},
          {"evaluated", evaluated},
          {"stopped_because", stopped_because.empty() ? json(nullptr) : json(stopped_because)}};
}

}  // namespace

int run_sweep(const SweepOptions& options) {
  const auto started = std::chrono::system_clock::now();
  const auto started_steady = std::chrono::steady_clock::now();
  const auto fail = [](const std::string& message) {
    std::cerr << "kbv sweep: " << message << "\n";
    return kExitBadInput;
  };

  // 1. Configuration.
  SweepConfig config;
  try {
    config = load_sweep_config(options.config_file);
  } catch (const ConfigError& error) {
    return fail(error.what());
  }
  apply_overrides(options, config);

  // 2. Problems.
  std::optional<ProblemCatalog> catalog;
  try {
    catalog = ProblemCatalog::load(config.problems_dir.empty() ? default_problems_directory() : config.problems_dir);
  } catch (const std::exception& error) {
    return fail(fmt::format("{} (fix: set problems_dir in {} to a folder of problem YAML files)", error.what(), config.file.string()));
  }

  // 3. Epoch.
  std::uint64_t epoch = 0;
  if (config.mode == Mode::kbvd) {
    try {
      epoch = kbvd_epoch(config.kbvd.socket);
    } catch (const control::ControlError& error) {
      return fail(error.what());
    }
    if (config.epoch && *config.epoch != epoch)
      return fail(fmt::format("kbvd at {} evaluates epoch {}, the sweep asks for epoch {}; fix: drop --epoch (and epoch: in {}) to sweep "
                              "kbvd's epoch, or run with --standalone to evaluate another epoch",
                              config.kbvd.socket.string(), epoch, *config.epoch, config.file.string()));
  } else {
    epoch = config.epoch ? *config.epoch : inputs::epoch_at(std::chrono::system_clock::now());
  }

  // 4. Secret key (standalone: the children read it; its id goes into the plan).
  std::string key_id;
  fs::path key_file;
  if (config.mode == Mode::standalone) {
    key_file = config.standalone.key_file.empty() ? inputs::default_key_path() : config.standalone.key_file;
    try {
      bool created = false;
      inputs::SecretKey::load_or_create(key_file, &created);
      if (created) std::cerr << "kbv sweep: created a new secret key at " << key_file.string() << " (keep it private)\n";
      key_id = secret_key_id(key_file);
    } catch (const std::exception& error) {
      return fail(error.what());
    }
  }

  // 5. Lock.
  const SweepFolder folder(config.output_dir);
  std::optional<FolderLock> lock;
  try {
    fs::create_directories(folder.plans_dir(epoch));
    lock.emplace(folder.epoch_dir(epoch) / fmt::format(".lock-shard-{}", options.shard.name()));
  } catch (const std::exception& error) {
    return fail(fmt::format("{}: {} (fix: make output_dir in {} a writable folder)", config.output_dir.string(), error.what(), config.file.string()));
  }
  remove_stale_temporaries(folder.results_dir(epoch));
  remove_stale_temporaries(folder.plans_dir(epoch));

  // 6. Candidates and plan.
  PlanRequest request{&config, &*catalog, &folder, epoch, options.shard.count, key_id};
  auto discovery = discover_candidates(config, *catalog);
  discovery.issues.insert(discovery.issues.begin(), config.issues.begin(), config.issues.end());
  const Plan plan = make_plan(request, std::move(discovery));
  write_file_atomically(plan_path(folder, plan), plan.to_json().dump(1) + "\n");
  for (const auto& issue : plan.issues) std::cerr << "kbv sweep: left out: " << issue.text() << "\n";

  const auto mine = plan.shard_items(options.shard.index);
  std::vector<const PlannedEvaluation*> todo;
  for (const auto* item : mine)
    if (!folder.result(epoch, item->key())) todo.push_back(item);
  const auto status_path = shard_status_path(folder, plan, options.shard);
  write_file_atomically(status_path, shard_status(plan, options.shard, "running", started, mine.size(), mine.size() - todo.size(), "").dump(1) + "\n");

  // 7. Evaluate.
  Progress progress(stderr, options.terminal);
  const std::string title = fmt::format("kbv sweep {} epoch {}{}", config.name, epoch, options.shard.whole() ? "" : " shard " + options.shard.name());
  progress.start(title, static_cast<int>(mine.size()), static_cast<int>(mine.size() - todo.size()));
  KbvdProgress kbvd_progress(config.kbvd.socket, config.name, epoch, options.shard.whole());
  kbvd_progress.running(mine.size(), mine.size() - todo.size());
  const StopSignals signals;
  RunContext context;
  context.epoch = epoch;
  context.todo = todo;
  if (config.budget.wall_s > 0)
    context.deadline = started_steady + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(config.budget.wall_s));
  context.max_evaluations = config.budget.evaluations;
  context.stop = &g_stop;
  context.on_record = [&](const PlannedEvaluation& item, const json& record) {
    folder.write_result(epoch, item.key(), record);
    progress.finished_one(record.value("verdict", "unknown"));
    kbvd_progress.running(mine.size(), static_cast<std::size_t>(progress.done()));
  };
  context.on_note = [&](const std::string& line) { progress.note(line); };
  RunResult result;
  try {
    if (config.mode == Mode::kbvd) {
      result = run_through_kbvd(context, {config.kbvd.socket, config.kbvd.poll_interval_s, folder.scratch_dir() / "manifests"});
    } else {
      StandaloneSettings settings{options.evaluator, config.standalone, key_file, config.problems_dir, folder.scratch_dir() / "evaluations"};
      result = run_standalone(context, settings);
    }
  } catch (const std::exception& error) {
    progress.note("kbv sweep: " + std::string(error.what()));
    result.stopped_because = error.what();
  }

  // 8. Status and reports.
  std::size_t evaluated = 0;
  for (const auto* item : mine) evaluated += folder.result(epoch, item->key()) ? 1 : 0;
  write_file_atomically(status_path, shard_status(plan, options.shard, "finished", started, mine.size(), evaluated, result.stopped_because).dump(1) + "\n");
  progress.finish(fmt::format("{} of {} evaluations have a verdict ({} evaluated by this run){}", evaluated, mine.size(), result.started,
                              result.stopped_because.empty() ? "" : "; stopped: " + result.stopped_because));

  const bool write_report = options.write_report.value_or(options.shard.whole());
  std::optional<json> report_json;
  if (write_report) {
    try {
      auto input = report::input_from_folder(folder, epoch);
      input.issues.insert(input.issues.end(), result.issues.begin(), result.issues.end());
      input.stopped_because = result.stopped_because;
      const auto run_folder = folder.create_run(epoch);
      input.run = {{"id", run_folder.filename().string()},
                   {"started_at", utc_text(started)},
                   {"finished_at", utc_text(std::chrono::system_clock::now())},
                   {"wall_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - started_steady).count()},
                   {"evaluations_started", result.started},
                   {"verdicts_reused", mine.size() - todo.size()},
                   {"budget", {{"wall_s", config.budget.wall_s}, {"evaluations", config.budget.evaluations}}}};
      input.previous = report::previous_report(folder, epoch, input.plan_id, &input.previous_run);
      // The run folder just created has no report.json yet, so it is not its own previous sweep.
      report_json = report::build_report(input);
      const auto written = report::write_report_files(*report_json, run_folder);
      report::write_report_files(*report_json, folder.root());
      if (!written.vega_error.empty()) std::cerr << "kbv sweep: report.html has no plots: " << written.vega_error << "\n";
      std::cerr << "kbv sweep: reports in " << run_folder.string() << " (and " << (folder.root() / "report.html").string() << ")\n";
    } catch (const std::exception& error) {
      std::cerr << "kbv sweep: cannot write the reports: " << error.what() << "\n";
      kbvd_progress.finished(mine.size(), evaluated, nullptr);
      return kExitIncomplete;
    }
  }
  kbvd_progress.finished(mine.size(), evaluated, report_json ? &*report_json : nullptr);
  return evaluated == mine.size() ? kExitComplete : kExitIncomplete;
}

}  // namespace kbv::sweep
