// daemon/sweep/sweep_engine.cpp — the steps of one sweep run (see sweep_engine.hpp).
#include "sweep/sweep_engine.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <set>

#include "client/control_client.hpp"
#include "client/json_dump.hpp"
#include "client/printable.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/secret_key.hpp"
#include "io/whole_file.hpp"
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
#include "sweep/slurm.hpp"
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

// FolderLock's refusal: its message already names the file and the fix.
class LockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An exclusive flock held for the sweep's life: one sweep per shard of an epoch and folder.
class FolderLock {
 public:
  explicit FolderLock(const fs::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw LockError(fmt::format("{}: cannot create the lock file; fix: check output_dir's permissions", path.string()));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      fd_ = -1;
      throw LockError(fmt::format("{}: another kbv sweep is running this shard of this epoch in the same output folder; "
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

// One run, step by step (sweep_engine.hpp). A step that cannot go on returns the exit status.
class SweepRun {
 public:
  explicit SweepRun(const SweepOptions& options) : options_(options) {}

  int run() {
    if (const auto failed = configure()) return *failed;
    if (const auto failed = settle_epoch_and_key()) return *failed;
    if (const auto failed = lock_and_plan()) return *failed;
    const RunResult result = evaluate();
    return finish(result);
  }

  // kbv sweep --slurm: the epoch and the key settled once, here; the plan and its file; the
  // scripts of the job array (only the shards not yet complete) and of the merge job; sbatch.
  int submit_slurm(const SlurmOptions& slurm) {
    if (const auto failed = configure()) return *failed;
    config_.mode = Mode::standalone;  // every task evaluates on its own node
    if (const auto failed = settle_epoch_and_key()) return *failed;
    try {
      check_private_key_file(key_file_);
    } catch (const SlurmError& error) {
      return fail(error.what());
    }
    folder_.emplace(config_.output_dir);
    const fs::path slurm_dir = folder_->epoch_dir(epoch_) / "slurm";
    const fs::path submission_file = slurm_dir / "submission.json";
    try {
      fs::create_directories(folder_->plans_dir(epoch_));
      fs::create_directories(slurm_dir / "logs");
    } catch (const std::exception& error) {
      return fail(fmt::format("{}: {} (fix: make output_dir in {} a writable folder)", config_.output_dir.string(), error.what(),
                              config_.file.string()));
    }
    auto discovery = discover_candidates(config_, *catalog_);
    discovery.issues.insert(discovery.issues.begin(), config_.issues.begin(), config_.issues.end());
    int count = slurm.array_size.value_or(0);
    if (count == 0) {  // the previous submission's, so that a resubmission finds its shards
      try {
        count = read_json_file(submission_file).value("shard_count", 0);
      } catch (const std::exception&) {
        count = 0;
      }
    }
    if (count == 0) {  // one task per problem
      std::set<std::string> problems;
      for (const auto& item : make_plan({&config_, &*catalog_, &*folder_, epoch_, 1, key_id_}, discovery).items) problems.insert(item.candidate.problem);
      count = std::clamp(static_cast<int>(problems.size()), 1, kMaxSlurmArraySize);
    }
    plan_ = make_plan({&config_, &*catalog_, &*folder_, epoch_, count, key_id_}, std::move(discovery));
    for (const auto& issue : plan_.issues) std::cerr << "kbv sweep: left out: " << control::printable(issue.text()) << "\n";
    // Written in a dry run too: the printed scripts name it (--plan), for a submission by hand.
    io::write_file_whole(plan_path(*folder_, plan_), control::json_dump(plan_.to_json(), 1) + "\n");

    SlurmJob job;
    job.kbv = fs::absolute(options_.evaluator);
    job.config_file = fs::absolute(config_.file);
    job.output_dir = fs::absolute(config_.output_dir);
    job.key_file = fs::absolute(key_file_);
    job.slurm_dir = fs::absolute(slurm_dir);
    job.name = config_.name;
    job.epoch = epoch_;
    job.plan_id = plan_.plan_id;
    job.shard_count = count;
    job.shards = shards_to_submit(*folder_, plan_);
    job.jobs = options_.jobs;
    if (options_.budget_evaluations) job.task_args.insert(job.task_args.end(), {"--budget-evaluations", std::to_string(*options_.budget_evaluations)});
    if (options_.budget_wall_s) job.task_args.insert(job.task_args.end(), {"--budget-wall-s", fmt::format("{}", *options_.budget_wall_s)});
    job.partition = slurm.partition;
    job.gpus_per_task = slurm.gpus_per_task;
    if (job.gpus_per_task) job.device = *job.gpus_per_task > 0 ? "cuda" : "host";  // --gpus-per-task 0: a host sweep
    else job.device = config_.standalone.device;
    if (job.device == "cuda" && !job.gpus_per_task) job.gpus_per_task = 1;
    // One evaluation per GPU on cuda, --jobs (or standalone.jobs) at once on the host.
    const int at_once = job.device == "cuda" ? *job.gpus_per_task : job.jobs.value_or(config_.standalone.jobs);
    job.cpus_per_task = slurm.cpus_per_task.value_or(std::min(kMaxCpusPerTask, kCpusPerEvaluation * std::max(1, at_once)));

    const fs::path array_script = slurm_dir / "array.sbatch", merge_script = slurm_dir / "merge.sbatch";
    std::string shards_text;
    for (const int shard : job.shards) shards_text += (shards_text.empty() ? "" : ",") + std::to_string(shard);
    std::cerr << fmt::format("kbv sweep: plan {} of epoch {}: {} evaluations in {} shards; {}\n", plan_.plan_id, epoch_, plan_.items.size(), count,
                             job.shards.empty() ? std::string("every shard is complete, only the merge job runs")
                                                : fmt::format("{} of them to run (shards {})", job.shards.size(), shards_text));
    try {
      if (!job.shards.empty()) io::write_file_whole(array_script, slurm_array_script(job));
      io::write_file_whole(merge_script, slurm_merge_script(job));
      if (slurm.dry_run) {
        if (!job.shards.empty())
          std::cout << "# " << array_script.string() << "  (sbatch --parsable " << array_script.string() << ")\n" << slurm_array_script(job) << "\n";
        std::string merge_command = "sbatch --parsable ";
        if (!job.shards.empty()) merge_command += slurm_merge_arguments(std::string("<array job id>")).front() + " ";
        std::cout << "# " << merge_script.string() << "  (" << merge_command << merge_script.string() << ")\n" << slurm_merge_script(job);
        return kExitComplete;
      }
      std::optional<std::string> array_id;
      if (!job.shards.empty()) array_id = submit_with_sbatch(slurm.sbatch, {}, array_script);
      const auto merge_id = submit_with_sbatch(slurm.sbatch, slurm_merge_arguments(array_id), merge_script);
      io::write_file_whole(submission_file, control::json_dump(json{{"schema", "kbv.sweep.slurm"},
                                                  {"schema_version", 1},
                                                  {"plan_id", plan_.plan_id},
                                                  {"epoch", epoch_},
                                                  {"shard_count", count},
                                                  {"shards", job.shards},
                                                  {"key_file", job.key_file.string()},
                                                  {"key_id", key_id_},
                                                  {"array_job_id", array_id ? json(*array_id) : json(nullptr)},
                                                  {"merge_job_id", merge_id},
                                                  {"submitted_at", utc_text(started_)}},
                                                                     1) + "\n");
      if (array_id) std::cout << "array job " << *array_id << " (shards " << shards_text << " of " << count << ")\n";
      std::cout << "merge job " << merge_id << "\n";
    } catch (const std::exception& error) {
      return fail(error.what());
    }
    return kExitComplete;
  }

 private:
  int fail(const std::string& message) const {
    std::cerr << "kbv sweep: " << message << "\n";
    return kExitBadInput;
  }

  // Steps 1 and 2: the configuration with the command line's overrides, and the problems.
  std::optional<int> configure() {
    try {
      config_ = load_sweep_config(options_.config_file);
    } catch (const ConfigError& error) {
      return fail(error.what());
    }
    apply_overrides(options_, config_);
    try {
      catalog_.emplace(ProblemCatalog::load(config_.problems_dir.empty() ? default_problems_directory() : config_.problems_dir));
    } catch (const std::exception& error) {
      return fail(fmt::format("{} (fix: set problems_dir in {} to a folder of problem YAML files)", error.what(), config_.file.string()));
    }
    return std::nullopt;
  }

  // Steps 3 and 4: kbvd's epoch (or the one asked for, standalone) and the standalone key.
  std::optional<int> settle_epoch_and_key() {
    if (config_.mode == Mode::kbvd) {
      try {
        epoch_ = kbvd_epoch(config_.kbvd.socket);
      } catch (const control::ControlError& error) {
        return fail(error.what());
      }
      if (config_.epoch && *config_.epoch != epoch_)
        return fail(fmt::format("kbvd at {} evaluates epoch {}, the sweep asks for epoch {}; fix: drop --epoch (and epoch: in {}) to sweep "
                                "kbvd's epoch, or run with --standalone to evaluate another epoch",
                                config_.kbvd.socket.string(), epoch_, *config_.epoch, config_.file.string()));
      return std::nullopt;
    }
    epoch_ = config_.epoch ? *config_.epoch : inputs::epoch_at(std::chrono::system_clock::now());
    key_file_ = config_.standalone.key_file.empty() ? inputs::default_key_path() : config_.standalone.key_file;
    try {
      bool created = false;
      // As kbv eval: only kbv's own default key may bring its state folder into being.
      inputs::SecretKey::load_or_create(key_file_, &created, key_file_ == inputs::state_directory() / "secret.key");
      if (created) std::cerr << "kbv sweep: created a new secret key at " << key_file_.string() << " (keep it private)\n";
      key_id_ = secret_key_id(key_file_);
    } catch (const std::exception& error) {
      return fail(error.what());
    }
    return std::nullopt;
  }

  // Steps 5 and 6: one sweep per shard of an epoch and folder; the plan, its file, this shard's
  // status; what has no verdict yet.
  std::optional<int> lock_and_plan() {
    folder_.emplace(config_.output_dir);
    try {
      fs::create_directories(folder_->plans_dir(epoch_));
      lock_.emplace(folder_->epoch_dir(epoch_) / fmt::format(".lock-shard-{}", options_.shard.name()));
    } catch (const LockError& error) {
      return fail(error.what());
    } catch (const std::exception& error) {
      return fail(fmt::format("{}: {} (fix: make output_dir in {} a writable folder)", config_.output_dir.string(), error.what(),
                              config_.file.string()));
    }
    remove_stale_temporaries(folder_->results_dir(epoch_));
    remove_stale_temporaries(folder_->plans_dir(epoch_));
    if (options_.plan_id) {
      if (const auto failed = read_submitted_plan(*options_.plan_id)) return failed;
    } else {
      auto discovery = discover_candidates(config_, *catalog_);
      discovery.issues.insert(discovery.issues.begin(), config_.issues.begin(), config_.issues.end());
      plan_ = make_plan({&config_, &*catalog_, &*folder_, epoch_, options_.shard.count, key_id_}, std::move(discovery));
      io::write_file_whole(plan_path(*folder_, plan_), control::json_dump(plan_.to_json(), 1) + "\n");
      for (const auto& issue : plan_.issues) std::cerr << "kbv sweep: left out: " << control::printable(issue.text()) << "\n";
    }
    mine_ = plan_.shard_items(options_.shard.index);
    for (const auto* item : mine_)
      if (!folder_->result(epoch_, item->key())) todo_.push_back(item);
    write_status("running", mine_.size() - todo_.size(), "");
    return std::nullopt;
  }

  // --plan ID (a Slurm task): the plan `kbv sweep --slurm` wrote, for this epoch, shard count and key.
  std::optional<int> read_submitted_plan(const std::string& id) {
    const fs::path file = folder_->plans_dir(epoch_) / (id + ".json");
    const std::string resubmit = "fix: submit the sweep again with kbv sweep --slurm, which writes the plan its tasks read";
    try {
      plan_ = Plan::from_json(read_json_file(file));
    } catch (const std::exception& error) {
      return fail(fmt::format("{}: the plan this task was submitted with cannot be read: {} ({})", file.string(), error.what(), resubmit));
    }
    std::string mismatch;
    if (plan_.plan_id != id)
      mismatch = fmt::format("the file holds plan '{}', not '{}'", control::printable(plan_.plan_id), id);
    else if (plan_.epoch != epoch_)
      mismatch = fmt::format("the plan is of epoch {}, this task evaluates epoch {}", plan_.epoch, epoch_);
    else if (plan_.shard_count != options_.shard.count)
      mismatch = fmt::format("the plan has {} shards, this task is shard {}", plan_.shard_count, options_.shard.name());
    else if (plan_.key_id != key_id_)
      mismatch = fmt::format("the plan was made with key id {}, this task reads {} (key id {})", control::printable(plan_.key_id),
                             key_file_.string(), key_id_);
    if (!mismatch.empty()) return fail(fmt::format("{}: {} ({})", file.string(), mismatch, resubmit));
    return std::nullopt;
  }

  // Step 7: evaluate what has no verdict, each verdict written as soon as it exists.
  RunResult evaluate() {
    progress_.start(fmt::format("kbv sweep {} epoch {}{}", config_.name, epoch_, options_.shard.whole() ? "" : " shard " + options_.shard.name()),
                    static_cast<int>(mine_.size()), static_cast<int>(mine_.size() - todo_.size()));
    kbvd_progress_.emplace(config_.kbvd.socket, config_.name, epoch_, options_.shard.whole());
    kbvd_progress_->running(mine_.size(), mine_.size() - todo_.size());
    const StopSignals signals;
    RunContext context;
    context.epoch = epoch_;
    context.todo = todo_;
    if (config_.budget.wall_s > 0)
      context.deadline = started_steady_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(config_.budget.wall_s));
    context.max_evaluations = config_.budget.evaluations;
    context.stop = &g_stop;
    context.on_record = [this](const PlannedEvaluation& item, const json& record) {
      folder_->write_result(epoch_, item.key(), record);
      progress_.finished_one(record.value("verdict", "unknown"));
      kbvd_progress_->running(mine_.size(), static_cast<std::size_t>(progress_.done()));
    };
    context.on_note = [this](const std::string& line) { progress_.note(line); };
    RunResult result;
    try {
      if (config_.mode == Mode::kbvd)
        result = run_through_kbvd(context, {config_.kbvd.socket, config_.kbvd.poll_interval_s, folder_->scratch_dir() / "manifests"});
      else
        result = run_standalone(context, {options_.evaluator, config_.standalone, key_file_, config_.problems_dir, folder_->scratch_dir() / "evaluations"});
    } catch (const std::exception& error) {
      progress_.note("kbv sweep: " + std::string(error.what()));
      result.stopped_because = error.what();
    }
    return result;
  }

  // Step 8: the shard's status, the reports, kbvd's headline figures; the exit status.
  int finish(const RunResult& result) {
    std::size_t evaluated = 0;
    for (const auto* item : mine_) evaluated += folder_->result(epoch_, item->key()) ? 1 : 0;
    write_status("finished", evaluated, result.stopped_because);
    progress_.finish(fmt::format("{} of {} evaluations have a verdict ({} evaluated by this run){}", evaluated, mine_.size(), result.started,
                                 result.stopped_because.empty() ? "" : "; stopped: " + result.stopped_because));
    std::optional<json> report_json;
    bool reports_written = true;
    if (options_.write_report.value_or(options_.shard.whole())) {
      try {
        report_json = write_reports(result);
      } catch (const std::exception& error) {
        std::cerr << "kbv sweep: cannot write the reports: " << error.what() << "\n";
        reports_written = false;
      }
    }
    kbvd_progress_->finished(mine_.size(), evaluated, report_json ? &*report_json : nullptr);
    return reports_written && evaluated == mine_.size() ? kExitComplete : kExitIncomplete;
  }

  json write_reports(const RunResult& result) {
    auto input = report::input_from_folder(*folder_, epoch_);
    input.issues.insert(input.issues.end(), result.issues.begin(), result.issues.end());
    input.stopped_because = result.stopped_because;
    const auto run_folder = folder_->create_run(epoch_);
    input.run = {{"id", run_folder.filename().string()},
                 {"started_at", utc_text(started_)},
                 {"finished_at", utc_text(std::chrono::system_clock::now())},
                 {"wall_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - started_steady_).count()},
                 {"evaluations_started", result.started},
                 {"verdicts_reused", mine_.size() - todo_.size()},
                 {"budget", {{"wall_s", config_.budget.wall_s}, {"evaluations", config_.budget.evaluations}}}};
    // The run folder just created has no report.json yet, so it is not its own previous sweep.
    input.previous = report::previous_report(*folder_, epoch_, input.plan_id, &input.previous_run, &input.issues);
    json report_json = report::build_report(input);
    const auto written = report::write_report_files(report_json, run_folder);
    const bool newest = report::is_newest_epoch(*folder_, epoch_);
    if (newest) report::write_report_files(report_json, folder_->root());
    if (!written.vega_error.empty()) std::cerr << "kbv sweep: report.html has no plots: " << written.vega_error << "\n";
    std::cerr << "kbv sweep: reports in " << run_folder.string()
              << (newest ? " (and " + (folder_->root() / "report.html").string() + ")" : " (not copied to the folder's top: a newer epoch's are there)") << "\n";
    return report_json;
  }

  void write_status(const std::string& state, std::size_t evaluated, const std::string& stopped_because) const {
    io::write_file_whole(shard_status_path(*folder_, plan_, options_.shard),
                          control::json_dump(shard_status(plan_, options_.shard, state, started_, mine_.size(), evaluated, stopped_because), 1) + "\n");
  }

  const SweepOptions& options_;
  const std::chrono::system_clock::time_point started_ = std::chrono::system_clock::now();
  const std::chrono::steady_clock::time_point started_steady_ = std::chrono::steady_clock::now();
  SweepConfig config_;
  std::optional<ProblemCatalog> catalog_;
  std::uint64_t epoch_ = 0;
  fs::path key_file_;   // standalone only
  std::string key_id_;  // standalone only
  std::optional<SweepFolder> folder_;
  std::optional<FolderLock> lock_;
  Plan plan_;
  std::vector<const PlannedEvaluation*> mine_, todo_;  // this shard's items; those without a verdict
  Progress progress_{stderr, options_.terminal};
  std::optional<KbvdProgress> kbvd_progress_;
};

}  // namespace

int run_sweep(const SweepOptions& options) { return SweepRun(options).run(); }

int submit_sweep_to_slurm(const SweepOptions& options, const SlurmOptions& slurm) { return SweepRun(options).submit_slurm(slurm); }

}  // namespace kbv::sweep
