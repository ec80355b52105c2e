// daemon/sweep/standalone_runner.cpp — a pool of evaluator children, one per slot.
#include "sweep/standalone_runner.hpp"

#include <stdlib.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "sched/devices.hpp"
#include "sweep/evaluator_process.hpp"
#include "sweep/json_text.hpp"
#include "sweep/result_record.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;

// How often running children are looked at: short next to any evaluation (≥ 0.1 s), long
// enough that waiting costs no CPU to speak of.
constexpr auto kPollInterval = std::chrono::milliseconds(20);
constexpr const char* kHostSlot = "host";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One child and the candidates it evaluates, in command-line order: `recorded` of them have their
// verdict line; the next one is being evaluated since `current_since`.
struct Running {
  std::vector<const PlannedEvaluation*> items;
  std::size_t recorded = 0;
  std::string slot;
  fs::path out, err;
  std::unique_ptr<EvaluatorProcess> process;
  std::chrono::steady_clock::time_point current_since;
  std::size_t out_read = 0;  // bytes of `out` already split into lines
  std::string partial;       // a line not yet ended
};

// How long an evaluator may take to exit once every verdict of its batch is in.
constexpr double kExitGraceSeconds = 60;
// Exit statuses that say the evaluator never judged anything: kbv eval's usage error (with no
// verdict printed), and the shell's "cannot execute" and "not found" (EvaluatorProcess's child
// exits 127 when execv fails).
constexpr int kExitUsage = 2;
constexpr int kExitCannotExecute = 126;
constexpr int kExitNotFound = 127;

// Removes a folder when the run ends, however it ends.
struct RemoveOnExit {
  std::string path;
  ~RemoveOnExit() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// Run folders under `scratch` a killed sweep left: older than any run in progress can be.
void remove_stale_run_folders(const fs::path& scratch) {
  constexpr auto kStaleAge = std::chrono::hours(24 * 8);  // past the longest wall budget a sweep is likely given
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(scratch, error)) {
    if (!entry.path().filename().string().starts_with("run-") || !entry.is_directory(error)) continue;
    const auto written = fs::last_write_time(entry.path(), error);
    if (!error && fs::file_time_type::clock::now() - written > kStaleAge) fs::remove_all(entry.path(), error);
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The complete lines `out` gained since the last call.
std::vector<std::string> new_lines(Running& running) {
  std::ifstream in(running.out, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(running.out_read));
  std::string chunk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  running.out_read += chunk.size();
  running.partial += chunk;
  std::vector<std::string> lines;
  for (std::size_t end; (end = running.partial.find('\n')) != std::string::npos;) {
    lines.push_back(running.partial.substr(0, end));
    running.partial.erase(0, end + 1);
  }
  return lines;
}

}  // namespace

std::vector<std::string> standalone_slots(const StandaloneOptions& options) {
  std::vector<std::string> slots;
  if (options.device == "host") {
    for (int i = 0; i < options.jobs; ++i) slots.push_back(kHostSlot);
    return slots;
  }
  std::vector<int> gpus = options.gpus;
  if (gpus.empty())
    for (int i = 0; i < kbvd::count_visible_gpus(std::getenv("CUDA_VISIBLE_DEVICES"), "/dev"); ++i) gpus.push_back(i);
  if (gpus.empty())
    throw std::runtime_error("standalone.device is cuda but no GPU is visible; fix: name them (--gpus 0,1 or standalone.gpus), or use --device host");
  for (const int gpu : gpus) slots.push_back(std::to_string(gpu));
  return slots;
}

std::vector<std::string> evaluator_command(const StandaloneSettings& settings, const std::vector<const PlannedEvaluation*>& items,
                                           std::uint64_t epoch, const std::string& slot) {
  std::vector<std::string> argv = {settings.evaluator.string(), "eval"};
  for (const PlannedEvaluation* item : items) argv.push_back(item->candidate.path.string());
  argv.insert(argv.end(), {"--json", "--device", settings.options.device, "--epoch", std::to_string(epoch)});
  if (slot != kHostSlot) argv.insert(argv.end(), {"--gpu", slot});
  // One batch is one problem (take_batch): the first item's stands for all.
  if (!items.front()->candidate.problem.empty()) argv.insert(argv.end(), {"--problem", items.front()->candidate.problem});
  if (!settings.options.shapes.empty()) argv.insert(argv.end(), {"--shapes", settings.options.shapes});
  if (!settings.key_file.empty()) argv.insert(argv.end(), {"--key-file", settings.key_file.string()});
  if (!settings.problems_dir.empty()) argv.insert(argv.end(), {"--problems-dir", settings.problems_dir.string()});
  argv.insert(argv.end(), settings.options.extra_args.begin(), settings.options.extra_args.end());
  return argv;
}

RunResult run_standalone(const RunContext& context, const StandaloneSettings& settings) {
  RunResult result;
  const auto slots = standalone_slots(settings.options);
  fs::create_directories(settings.scratch);
  // A folder of this run's own: the evaluators' output files are named by key, which two sweeps of
  // one output folder (another epoch, another shard) can share (review: one truncated the other's
  // verdict lines). Removed when the run ends; one a kill -9 left is removed by a later run.
  remove_stale_run_folders(settings.scratch);
  std::string run_dir = (settings.scratch / "run-XXXXXX").string();
  if (::mkdtemp(run_dir.data()) == nullptr) throw std::runtime_error(settings.scratch.string() + ": cannot make a folder for the evaluators' output");
  const RemoveOnExit remove_run_dir{run_dir};
  std::vector<std::optional<Running>> busy(slots.size());
  // Plan order (grouped by problem); a candidate whose batch ended before it was evaluated comes
  // back to the front, to be evaluated alone.
  std::deque<const PlannedEvaluation*> queue(context.todo.begin(), context.todo.end());
  std::set<const PlannedEvaluation*> alone;
  std::string evaluator_unusable;  // set when an evaluator's own set-up failed (exit 3)
  const auto stop_reason = [&]() -> std::string {
    if (!evaluator_unusable.empty()) return evaluator_unusable;
    if (context.stop && context.stop->load()) return kStoppedSignal;
    if (context.deadline && std::chrono::steady_clock::now() >= *context.deadline) return kStoppedWallBudget;
    return "";
  };
  const auto take_batch = [&]() {
    std::vector<const PlannedEvaluation*> batch{queue.front()};
    queue.pop_front();
    const auto room = [&] {
      const auto size = static_cast<std::int64_t>(batch.size());
      return size < settings.options.batch && (context.max_evaluations <= 0 || result.started + size < context.max_evaluations);
    };
    while (!alone.count(batch.front()) && !queue.empty() && !alone.count(queue.front()) && room() &&
           queue.front()->candidate.problem == batch.front()->candidate.problem) {
      batch.push_back(queue.front());
      queue.pop_front();
    }
    return batch;
  };
  const auto record_outcome = [&](Running& running, const kbvd::Outcome& outcome) {
    const PlannedEvaluation* item = running.items[running.recorded++];
    running.current_since = std::chrono::steady_clock::now();
    // kbv eval hashes the copy it evaluated: other bytes than planned (the file rewritten since
    // the plan) are not this key's verdict (review).
    const std::string evaluated = outcome.report.is_object() && outcome.report.contains("candidate") ? json_text(outcome.report["candidate"], "sha256") : "";
    if (!evaluated.empty() && evaluated != item->candidate.sha256) {
      result.issues.push_back(changed_since_planned(item->candidate.path.string(), item->candidate.sha256, evaluated));
      context.on_note("kbv sweep: " + result.issues.back().text());
      return;
    }
    context.on_record(*item, record_from_outcome(item->candidate, item->role, context.epoch, outcome));
  };
  const auto record_lines = [&](Running& running) {
    for (const std::string& line : new_lines(running)) {
      if (line.empty() || line.front() != '{' || running.recorded >= running.items.size()) continue;
      const kbvd::Outcome outcome = kbvd::decide_line_outcome(line, seconds_since(running.current_since), settings.options.timeout_s);
      // kbv eval's line about its own invocation (set-up failed, exit 3 follows) names no
      // candidate: it is no candidate's verdict (the first of the batch got it before).
      if (outcome.report.is_object() && !outcome.report.contains("candidate")) continue;
      record_outcome(running, outcome);
    }
  };
  // The candidates of a batch after the one its child ended on were never evaluated.
  const auto requeue_rest = [&](Running& running) {
    for (std::size_t i = running.items.size(); i-- > running.recorded;) {
      alone.insert(running.items[i]);
      queue.push_front(running.items[i]);
    }
    result.started -= static_cast<std::int64_t>(running.items.size() - running.recorded);
    running.items.resize(running.recorded);
  };
  for (;;) {
    if (const auto why = stop_reason(); !why.empty()) {
      // Verdicts already printed are kept; unfinished evaluations leave no record (a later run
      // evaluates them again) and are not counted as evaluated by this run.
      bool abandoned = false;
      for (auto& running : busy) {
        if (!running) continue;
        record_lines(*running);
        const auto unfinished = static_cast<std::int64_t>(running->items.size() - running->recorded);
        result.started -= unfinished;
        abandoned = abandoned || unfinished > 0;
        running.reset();
      }
      if (!queue.empty() || abandoned) result.stopped_because = why;
      break;
    }
    for (std::size_t slot = 0; slot < slots.size() && !queue.empty(); ++slot) {
      if (busy[slot]) continue;
      if (context.max_evaluations > 0 && result.started >= context.max_evaluations) break;
      Running running;
      running.items = take_batch();
      running.slot = slots[slot];
      running.out = fs::path(run_dir) / (running.items.front()->key() + ".out");
      running.err = fs::path(run_dir) / (running.items.front()->key() + ".err");
      running.process = std::make_unique<EvaluatorProcess>(evaluator_command(settings, running.items, context.epoch, slots[slot]), running.out, running.err);
      running.current_since = std::chrono::steady_clock::now();
      result.started += static_cast<std::int64_t>(running.items.size());
      busy[slot] = std::move(running);
    }
    bool any_running = false;
    for (auto& running : busy) {
      if (!running) continue;
      record_lines(*running);
      // The candidate being evaluated has had timeout_s since the one before it ended.
      std::optional<kbvd::ChildExit> exit;
      if (running->recorded < running->items.size() && seconds_since(running->current_since) > settings.options.timeout_s) {
        running->process->kill();
        exit = kbvd::ChildExit{};
        exit->timed_out = true;
      } else if (running->recorded == running->items.size() &&
                 seconds_since(running->current_since) > std::min(settings.options.timeout_s, kExitGraceSeconds)) {
        // Every verdict is in and the evaluator has not exited (a worker wedged in the driver as it
        // is reaped): its slot is freed, its verdicts kept (review: the sweep hung at 100 %).
        running->process->kill();
        exit = kbvd::ChildExit{};
      } else {
        exit = running->process->poll(std::numeric_limits<double>::infinity());
      }
      if (!exit) {
        any_running = true;
        continue;
      }
      record_lines(*running);
      if (running->recorded < running->items.size()) {
        // The child ended on this candidate: its exit and output are this candidate's verdict.
        exit->timeout_s = settings.options.timeout_s;
        exit->seconds = seconds_since(running->current_since);
        const kbvd::Outcome outcome = kbvd::decide_outcome(*exit, running->partial, read_text(running->err));
        // Exit 3: the evaluator's own set-up failed; nothing was judged, and nothing more will be.
        // So is an evaluator that printed no verdict at all and exited 2 (it refused its command
        // line: standalone.extra_args, shapes) or 126/127 (it could not be started): not the
        // candidate's verdict, and no candidate after it would fare better (review: every
        // candidate of a sweep with a typo in extra_args was recorded bad_input for the epoch).
        const int code = exit->exit_code.value_or(-1);
        const bool refused_itself = running->recorded == 0 && !outcome.report.is_object() &&
                                    (code == kExitUsage || code == kExitCannotExecute || code == kExitNotFound);
        if (outcome.worker_exit == "exec_failed" || refused_itself)
          evaluator_unusable = "the evaluator cannot run: " + (outcome.detail.empty() ? "exit " + std::to_string(code) : outcome.detail) +
                               " (fix: check standalone.extra_args, standalone.shapes and the kbv binary, then run the sweep again)";
        else
          record_outcome(*running, outcome);
        requeue_rest(*running);
      }
      std::error_code error;
      fs::remove(running->out, error);
      fs::remove(running->err, error);
      running.reset();
    }
    if (!any_running && queue.empty()) break;
    if (!any_running && context.max_evaluations > 0 && result.started >= context.max_evaluations) {
      result.stopped_because = kStoppedEvaluationBudget;
      break;
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  return result;
}

}  // namespace kbv::sweep
