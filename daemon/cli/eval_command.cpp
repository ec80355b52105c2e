// cli/eval_command.cpp — parse `kbv eval` options, run evaluations, print each verdict as it
// finishes, and exit.
//
// Exit status: 0 every candidate passed; 1 some verdict other than pass; 2 usage or bad input
// (unreadable or non-ELF file, unknown problem, bad problem spec, bad key file). With several
// candidates every one is evaluated and reported, and the table's footer names those that
// could not be; the status is the worst of them.
#include "cli/eval_command.hpp"

#include <sys/prctl.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/command_line.hpp"
#include "cli/option_types.hpp"
#include "cli/paths.hpp"
#include "cli/problem_lookup.hpp"
#include "cli/progress_line.hpp"
#include "cli/report_text.hpp"
#include "client/json_dump.hpp"
#include "eval/evaluator.hpp"
#include "eval/evaluation_session.hpp"
#include "inputs/epoch_plan.hpp"
#include "lifetime/stop_signals.hpp"

namespace po = boost::program_options;

namespace kbv::cli {

namespace {

const CommandHelp kHelp = {
    "eval", "eval CANDIDATE.so... [options]",
    "Evaluate candidates now, without a daemon: load each in a sandboxed worker, check it against kbv's fp64\n"
    "reference on the public and hidden input families, time it against the baselines, and print its verdict as\n"
    "soon as it is known (--json: one object per candidate, docs/result-schema.md).\n"
    "Exit status: 0 every candidate passed, 1 some other verdict, 2 usage or bad input (the message names the\n"
    "file, the field and the fix; with several candidates, the others are still evaluated and reported)."};

int bad_input(const std::string& message, bool json) {
  std::cerr << "kbv eval: " << message << "\n";
  if (json) std::cout << control::json_dump(nlohmann::json{{"schema_version", eval::kResultSchemaVersion}, {"verdict", "bad_input"}, {"error", message}}) << "\n";
  return kExitBadInput;
}

// A candidate the evaluator refused before it had a result of its own (it threw).
eval::EvalResult refused(const std::string& candidate, const std::string& message, const eval::EvalOptions& options) {
  eval::EvalResult result;
  result.verdict = eval::Verdict::bad_input;
  result.detail = message;
  result.input_error = true;
  result.candidate_path = candidate;
  result.candidate_device = options.device;
  result.epoch = options.epoch;
  return result;
}

// Prints each result the moment it is known: a JSON line, or a summary (one candidate) or a
// table row (several), with the worker's output under it when asked for.
class Reporter {
 public:
  Reporter(bool json, bool verbose, size_t count, ProgressLine::Mode progress_mode)
      : json_(json), verbose_(verbose), count_(count), progress_(progress_mode) {}

  void starting(size_t index, const std::string& candidate) {
    std::string text = "[" + std::to_string(index + 1) + "/" + std::to_string(count_) + "] evaluating " +
                       std::filesystem::path(candidate).filename().string();
    if (index > 0) text += " (" + std::to_string(passed_) + " of " + std::to_string(index) + " passed so far)";
    progress_.show(text);
  }

  void finished(const eval::EvalResult& result) {
    // A stop signal's cleanups killed the worker: what the evaluation made of that is no verdict.
    lifetime::hold_if_stopping();
    progress_.clear();
    if (result.input_error) std::cerr << "kbv eval: " << result.detail << "\n";
    if (json_) {
      // A detail may quote the candidate's output, which need not be UTF-8 (U+FFFD replaces it).
      std::cout << control::json_dump(result.to_json()) << std::endl;
    } else if (count_ == 1) {
      print_summary(std::cout, result);
    } else {
      if (results_.empty()) print_table_header(std::cout);
      print_table_row(std::cout, result);
    }
    if (verbose_ && !json_ && !result.input_error) print_worker_output(std::cout, result);
    std::cout.flush();
    passed_ += result.verdict == eval::Verdict::pass;
    results_.push_back(result);
  }

  // The table's footer (text, several candidates); returns the exit status.
  int done() {
    progress_.clear();
    if (!json_ && count_ > 1) print_table_footer(std::cout, results_);
    int exit_code = kExitOk;
    for (const auto& result : results_) exit_code = std::max(exit_code, result.exit_code());
    return exit_code;
  }

 private:
  bool json_, verbose_;
  size_t count_;
  ProgressLine progress_;
  size_t passed_ = 0;
  std::vector<eval::EvalResult> results_;
};

}  // namespace

int eval_command(const std::vector<std::string>& args) {
  // The evaluator holds references and the key: no same-uid process (a worker) may ptrace it
  // or read its memory through /proc/<pid>/mem.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  // Ctrl-C, SIGTERM or SIGHUP: end the worker and remove its scratch, then die of the signal.
  lifetime::clean_up_on_stop_signals();
  po::options_description options;
  options.add_options()(
      "problem", po::value<std::string>()->value_name("NAME"),
      "problem to evaluate as: a name or KernelBench's L1/19 (default: what the candidate declares)")(
      "device", po::value<std::string>()->default_value("host"), "host or cuda")(
      "gpu", po::value<int>()->default_value(0), "CUDA device ordinal")(
      "shapes", po::value<std::string>()->value_name("SET"), "shape set (default: small on host, default on cuda)")(
      "epoch", po::value<Unsigned>()->value_name("N"), "epoch number (default: the current week since 2026-01-01)")(
      "key-file", po::value<std::string>()->value_name("F"), "secret key (default: $KBV_KEY_FILE or ~/.local/state/kbv/secret.key; created if missing)")(
      "problems-dir", po::value<std::string>()->value_name("DIR"), "problem specs directory (default: $KBV_PROBLEMS_DIR, else the installed or bundled problems/)")(
      "timeout-s", po::value<PositiveSeconds>()->default_value(PositiveSeconds{10.0}, "10"), "wall-clock limit for one call of the candidate (seconds > 0)")(
      "forbid", po::value<std::vector<std::string>>()->composing()->value_name("PATH"), "a path the worker must not read (repeatable; the key and problems are always)")(
      "timing-budget-s", po::value<PositiveSeconds>()->default_value(PositiveSeconds{0.5}, "0.5"), "host: wall-clock cap on the timing phase (seconds > 0)")(
      "no-timing", "check correctness only")(
      "samples", "report every kept timing sample (timing.samples: seconds per contender, SM clock ratio, order, family)")(
      "no-sandbox", "run the worker without its sandbox (debugging only)")(
      "verbose,v", "text output: print the tail of the worker's stderr (the candidate's own prints and kbv::log lines) under each verdict")(
      "progress", po::value<std::string>()->default_value("auto"), "a status line on stderr while candidates run: auto (on a terminal), always or never")(
      "json", "print one JSON object per candidate on stdout (docs/result-schema.md)");
  po::options_description hidden;
  hidden.add_options()("wait-for-candidate", "initialise, then read lines from stdin until it closes, one candidate each: PATH [TAB JSON options] (kbvd's warm spare)");

  int exit_code = kExitOk;
  const auto parsed = parse_command_line(kHelp, options, args, exit_code, {{"candidate", -1}}, &hidden);
  if (!parsed) return exit_code;
  const po::variables_map& vm = *parsed;
  const bool json = vm.count("json") != 0;
  std::vector<std::string> candidates = positional_values(vm, "candidate");
  const bool wait_for_candidate = vm.count("wait-for-candidate") != 0;
  if (candidates.empty() && !wait_for_candidate) return bad_input("no candidate given (usage: kbv eval CANDIDATE.so [options]; see --help)", json);
  ProgressLine::Mode progress_mode = ProgressLine::Mode::automatic;
  if (!parse_progress_mode(vm["progress"].as<std::string>(), progress_mode))
    return bad_input("--progress must be auto, always or never, got '" + vm["progress"].as<std::string>() + "'", json);

  eval::EvalOptions base;
  base.device = vm["device"].as<std::string>();
  if (base.device != "host" && base.device != "cuda") return bad_input("--device must be host or cuda, got '" + base.device + "'", json);
  base.gpu = vm["gpu"].as<int>();
  if (vm.count("shapes")) base.shape_set = vm["shapes"].as<std::string>();
  base.call_timeout_s = vm["timeout-s"].as<PositiveSeconds>().value;
  base.timing_budget_s = vm["timing-budget-s"].as<PositiveSeconds>().value;
  base.skip_timing = vm.count("no-timing") != 0;
  base.keep_samples = vm.count("samples") != 0;
  base.sandbox = vm.count("no-sandbox") == 0;
  if (vm.count("forbid"))
    for (const std::string& path : vm["forbid"].as<std::vector<std::string>>()) base.forbidden.emplace_back(std::filesystem::absolute(path));
  base.worker_binary = default_worker_binary();
  base.epoch = vm.count("epoch") ? vm["epoch"].as<Unsigned>().value : inputs::epoch_at(std::chrono::system_clock::now());
  base.key_file = vm.count("key-file") ? std::filesystem::path(vm["key-file"].as<std::string>()) : inputs::default_key_path();

  std::optional<ProblemCatalog> catalog;
  std::optional<inputs::SecretKey> key;
  try {
    catalog = ProblemCatalog::open(vm.count("problems-dir") ? std::filesystem::path(vm["problems-dir"].as<std::string>()) : default_problems_dir());
    bool created = false;
    // Only kbv's own default key may bring its state folder into being (a first run).
    key = inputs::SecretKey::load_or_create(base.key_file, &created, base.key_file == inputs::state_directory() / "secret.key");
    if (created) std::cerr << "kbv eval: created a new secret key at " << base.key_file.string() << " (keep it private)\n";
  } catch (const std::exception& error) {
    // Not the candidate's doing: exit 3, so kbvd and kbv sweep keep their queues for the fix.
    (void)bad_input(error.what(), json);
    return kExitEvaluatorSetup;
  }
  try {
    if (vm.count("problem")) base.problem = resolve_problem_name(*catalog, vm["problem"].as<std::string>());
  } catch (const std::exception& error) {
    return bad_input(error.what(), json);
  }
  // A shape set the named problem does not have is the invocation's error, known before any
  // candidate: exit 3, so a sweep stops rather than record it as every candidate's bad_input (review).
  if (const Problem* named = base.problem ? &catalog->get(*base.problem) : nullptr; named && base.shape_set && !named->shape_sets.count(*base.shape_set)) {
    std::string known;
    for (const auto& [name, symbols] : named->shape_sets) known += (known.empty() ? "" : ", ") + name;
    (void)bad_input("--shapes " + *base.shape_set + ": problem " + *base.problem + " has no such shape set (fix: use one of " + known + ")", json);
    return kExitEvaluatorSetup;
  }

  // Consecutive candidates share what does not depend on them (eval/evaluation_session.hpp).
  // kbvd's warm spare starts its worker now, so the sandbox and the worker's device are up when the
  // candidate comes; one that cannot start is started again, and reported, by the evaluation.
  eval::EvaluationSession session(base, *catalog);
  // Each candidate's options: the command line's, and with --wait-for-candidate what its line adds.
  std::vector<eval::EvalOptions> options_of;
  std::vector<std::string> refusal_of;  // non-empty: this candidate's line could not be used
  for (const std::string& candidate : candidates) {
    options_of.push_back(base);
    options_of.back().candidate = candidate;
    refusal_of.emplace_back();
  }
  if (wait_for_candidate) {
    // kbvd's spare: one line per candidate, PATH [TAB JSON options], until kbvd closes stdin (it
    // hands a spare consecutive candidates of one problem at once).
    session.set_candidates_after_this(1);
    session.start_next_worker();
    for (std::string line; std::getline(std::cin, line);) {
      if (line.empty()) continue;
      const auto tab = line.find('\t');
      eval::EvalOptions line_options = base;
      line_options.candidate = line.substr(0, tab);
      std::string refusal;
      if (tab != std::string::npos) {
        const auto extra = nlohmann::json::parse(line.substr(tab + 1), nullptr, false);
        if (extra.is_discarded() || !extra.is_object()) {
          refusal = "--wait-for-candidate: the options after the tab are not a JSON object";
        } else {
          try {
            if (extra.contains("problem") && extra["problem"].is_string()) line_options.problem = resolve_problem_name(*catalog, extra["problem"].get<std::string>());
          } catch (const std::exception& error) {
            refusal = error.what();
          }
          if (extra.contains("shapes") && extra["shapes"].is_string()) line_options.shape_set = extra["shapes"].get<std::string>();
        }
      }
      candidates.push_back(line_options.candidate.string());
      options_of.push_back(std::move(line_options));
      refusal_of.push_back(std::move(refusal));
    }
    if (candidates.empty()) return bad_input("--wait-for-candidate: no candidate path on stdin", json);
  }

  Reporter reporter(json, vm.count("verbose") != 0, candidates.size(), progress_mode);
  for (size_t i = 0; i < candidates.size(); ++i) {
    reporter.starting(i, candidates[i]);
    session.set_candidates_after_this(candidates.size() - i - 1);
    if (!refusal_of[i].empty()) {
      reporter.finished(refused(candidates[i], refusal_of[i], options_of[i]));
      continue;
    }
    try {
      reporter.finished(eval::evaluate(options_of[i], *catalog, *key, session));
    } catch (const std::exception& error) {
      reporter.finished(refused(candidates[i], error.what(), options_of[i]));
    }
  }
  return reporter.done();
}

}  // namespace kbv::cli
