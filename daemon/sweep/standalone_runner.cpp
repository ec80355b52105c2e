// daemon/sweep/standalone_runner.cpp — a pool of evaluator children, one per slot.
#include "sweep/standalone_runner.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "sched/devices.hpp"
#include "sweep/evaluator_process.hpp"
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

struct Running {
  const PlannedEvaluation* item = nullptr;
  std::string slot;
  fs::path out, err;
  std::unique_ptr<EvaluatorProcess> process;
};

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

std::vector<std::string> evaluator_command(const StandaloneSettings& settings, const PlannedEvaluation& item, std::uint64_t epoch,
                                           const std::string& slot) {
  std::vector<std::string> argv = {settings.evaluator.string(), "eval", item.candidate.path.string(), "--json",
                                   "--device", settings.options.device, "--epoch", std::to_string(epoch)};
  if (slot != kHostSlot) argv.insert(argv.end(), {"--gpu", slot});
  if (!item.candidate.problem.empty()) argv.insert(argv.end(), {"--problem", item.candidate.problem});
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
  std::vector<std::optional<Running>> busy(slots.size());
  std::size_t next = 0;
  const auto stop_reason = [&]() -> std::string {
    if (context.stop && context.stop->load()) return kStoppedSignal;
    if (context.deadline && std::chrono::steady_clock::now() >= *context.deadline) return kStoppedWallBudget;
    return "";
  };
  for (;;) {
    if (const auto why = stop_reason(); !why.empty()) {
      // Unfinished evaluations leave no record: a later run evaluates them again.
      for (auto& running : busy) running.reset();
      if (next < context.todo.size() || std::any_of(busy.begin(), busy.end(), [](const auto& r) { return r.has_value(); })) result.stopped_because = why;
      break;
    }
    for (std::size_t slot = 0; slot < slots.size() && next < context.todo.size(); ++slot) {
      if (busy[slot]) continue;
      if (context.max_evaluations > 0 && result.started >= context.max_evaluations) break;
      const PlannedEvaluation* item = context.todo[next++];
      Running running{item, slots[slot], settings.scratch / (item->key() + ".out"), settings.scratch / (item->key() + ".err"), nullptr};
      running.process = std::make_unique<EvaluatorProcess>(evaluator_command(settings, *item, context.epoch, slots[slot]), running.out, running.err);
      busy[slot] = std::move(running);
      ++result.started;
    }
    bool any_running = false;
    for (auto& running : busy) {
      if (!running) continue;
      const auto exit = running->process->poll(settings.options.timeout_s);
      if (!exit) {
        any_running = true;
        continue;
      }
      const auto outcome = kbvd::decide_outcome(*exit, read_text(running->out), read_text(running->err));
      context.on_record(*running->item, record_from_outcome(running->item->candidate, running->item->role, context.epoch, outcome));
      std::error_code error;
      fs::remove(running->out, error);
      fs::remove(running->err, error);
      running.reset();
    }
    if (!any_running && next >= context.todo.size()) break;
    if (!any_running && context.max_evaluations > 0 && result.started >= context.max_evaluations) {
      result.stopped_because = kStoppedEvaluationBudget;
      break;
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  return result;
}

}  // namespace kbv::sweep
