// cli/eval_command.cpp — parse `kbv eval` options, run evaluations, print and exit.
//
// Exit status: 0 every candidate passed; 1 some verdict other than pass; 2 usage or bad
// input (unreadable or non-ELF file, unknown problem, bad problem spec, bad key file).
#include "cli/eval_command.hpp"

#include <sys/prctl.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <optional>

#include "cli/paths.hpp"
#include "cli/report_text.hpp"
#include "eval/evaluator.hpp"
#include "inputs/epoch_plan.hpp"
#include "lifetime/stop_signals.hpp"

namespace po = boost::program_options;

namespace kbv::cli {

namespace {

constexpr int kExitBadInput = 2;

int bad_input(const std::string& message, bool json) {
  std::cerr << "kbv eval: " << message << "\n";
  if (json) std::cout << nlohmann::json{{"verdict", "bad_input"}, {"error", message}}.dump() << "\n";
  return kExitBadInput;
}

}  // namespace

int eval_command(const std::vector<std::string>& args) {
  // The evaluator holds references and the key: no same-uid process (a worker) may ptrace it
  // or read its memory through /proc/<pid>/mem.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  // Ctrl-C, SIGTERM or SIGHUP: end the worker and remove its scratch, then die of the signal.
  lifetime::clean_up_on_stop_signals();
  po::options_description options("kbv eval CANDIDATE.so... [options]");
  options.add_options()("help,h", "show this help")(
      "problem", po::value<std::string>(), "problem to evaluate as (default: what the candidate declares)")(
      "device", po::value<std::string>()->default_value("host"), "host or cuda")(
      "gpu", po::value<int>()->default_value(0), "CUDA device ordinal")(
      "shapes", po::value<std::string>(), "shape set (default: small on host, default on cuda)")(
      "epoch", po::value<uint64_t>(), "epoch number (default: the current week since 2026-01-01)")(
      "key-file", po::value<std::string>(), "secret key (default: $KBV_KEY_FILE or ~/.local/state/kbv/secret.key; created if missing)")(
      "problems-dir", po::value<std::string>(), "problem specs directory (default: $KBV_PROBLEMS_DIR or the bundled problems/)")(
      "timeout-s", po::value<double>()->default_value(10.0), "wall-clock limit for one call of the candidate")(
      "forbid", po::value<std::vector<std::string>>()->composing(), "a path the worker must not read (repeatable; the key and problems are always)")(
      "timing-budget-s", po::value<double>()->default_value(0.5), "host: wall-clock cap on the timing phase")(
      "no-timing", "check correctness only")(
      "samples", "report every kept timing sample (timing.samples: seconds per contender, SM clock ratio, order, family)")(
      "no-sandbox", "run the worker without its sandbox (debugging only)")(
      "wait-for-candidate", "initialise, then read one line from stdin: PATH [TAB JSON options] (the daemon's warm spare)")(
      "json", "print one JSON object per candidate on stdout");
  po::options_description hidden;
  hidden.add_options()("candidate", po::value<std::vector<std::string>>(), "candidate .so files");
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("candidate", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const std::exception& error) {
    std::cerr << "kbv eval: " << error.what() << "\n" << options;
    return kExitBadInput;
  }
  if (vm.count("help")) {
    std::cout << options;
    return 0;
  }
  const bool json = vm.count("json") != 0;
  std::vector<std::string> candidates = vm.count("candidate") ? vm["candidate"].as<std::vector<std::string>>() : std::vector<std::string>{};
  const bool wait_for_candidate = vm.count("wait-for-candidate") != 0;
  if (candidates.empty() && !wait_for_candidate) return bad_input("no candidate given (usage: kbv eval CANDIDATE.so [options]; see --help)", json);

  eval::EvalOptions base;
  base.device = vm["device"].as<std::string>();
  if (base.device != "host" && base.device != "cuda") return bad_input("--device must be host or cuda, got '" + base.device + "'", json);
  base.gpu = vm["gpu"].as<int>();
  if (vm.count("problem")) base.problem = vm["problem"].as<std::string>();
  if (vm.count("shapes")) base.shape_set = vm["shapes"].as<std::string>();
  base.call_timeout_s = vm["timeout-s"].as<double>();
  base.timing_budget_s = vm["timing-budget-s"].as<double>();
  base.skip_timing = vm.count("no-timing") != 0;
  base.keep_samples = vm.count("samples") != 0;
  base.sandbox = vm.count("no-sandbox") == 0;
  if (vm.count("forbid"))
    for (const std::string& path : vm["forbid"].as<std::vector<std::string>>()) base.forbidden.emplace_back(std::filesystem::absolute(path));
  base.worker_binary = default_worker_binary();
  base.epoch = vm.count("epoch") ? vm["epoch"].as<uint64_t>() : inputs::epoch_at(std::chrono::system_clock::now());
  base.key_file = vm.count("key-file") ? std::filesystem::path(vm["key-file"].as<std::string>()) : inputs::default_key_path();

  std::optional<ProblemCatalog> catalog;
  std::optional<inputs::SecretKey> key;
  try {
    catalog = ProblemCatalog::load(vm.count("problems-dir") ? std::filesystem::path(vm["problems-dir"].as<std::string>()) : default_problems_dir());
    bool created = false;
    key = inputs::SecretKey::load_or_create(base.key_file, &created);
    if (created) std::cerr << "kbv eval: created a new secret key at " << base.key_file.string() << " (keep it private)\n";
  } catch (const std::exception& error) {
    return bad_input(error.what(), json);
  }

  if (wait_for_candidate) {
    std::string line;
    if (!std::getline(std::cin, line) || line.empty()) return bad_input("--wait-for-candidate: no candidate path on stdin", json);
    const auto tab = line.find('\t');
    candidates = {line.substr(0, tab)};
    if (tab != std::string::npos) {
      const auto extra = nlohmann::json::parse(line.substr(tab + 1), nullptr, false);
      if (extra.is_discarded() || !extra.is_object()) return bad_input("--wait-for-candidate: the options after the tab are not a JSON object", json);
      if (extra.contains("problem") && extra["problem"].is_string()) base.problem = extra["problem"].get<std::string>();
      if (extra.contains("shapes") && extra["shapes"].is_string()) base.shape_set = extra["shapes"].get<std::string>();
    }
  }

  std::vector<eval::EvalResult> results;
  int exit_code = 0;
  for (const auto& candidate : candidates) {
    eval::EvalOptions options_for = base;
    options_for.candidate = candidate;
    try {
      results.push_back(eval::evaluate(options_for, *catalog, *key));
    } catch (const std::exception& error) {
      return bad_input(error.what(), json);
    }
    const eval::EvalResult& result = results.back();
    exit_code = std::max(exit_code, result.exit_code());
    if (json) std::cout << result.to_json().dump() << std::endl;
    if (result.input_error) std::cerr << "kbv eval: " << result.detail << "\n";
  }
  if (!json) {
    if (results.size() == 1) print_summary(std::cout, results.front());
    else print_table(std::cout, results);
  }
  return exit_code;
}

}  // namespace kbv::cli
