// cli/sweep_command.cpp — parse `kbv sweep` options into the sweep engine's overrides.
#include "cli/sweep_command.hpp"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>

#include "cli/paths.hpp"
#include "sweep/sweep_engine.hpp"

namespace po = boost::program_options;

namespace kbv::cli {
namespace {

constexpr int kExitUsage = 2;

std::vector<int> parse_gpus(const std::string& text) {
  std::vector<int> gpus;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    std::size_t used = 0;
    const int gpu = std::stoi(item, &used);
    if (used != item.size() || gpu < 0) throw std::invalid_argument(item);
    gpus.push_back(gpu);
  }
  if (gpus.empty()) throw std::invalid_argument(text);
  return gpus;
}

}  // namespace

int sweep_command(const std::vector<std::string>& args) {
  po::options_description options("kbv sweep SWEEP.yaml [options]   (docs/sweeps.md; options override the file)");
  options.add_options()("help,h", "show this help")(
      "standalone", "evaluate here, one `kbv eval` per candidate, instead of through kbvd")(
      "kbvd", "evaluate through kbvd's queue (the default unless the file says mode: standalone)")(
      "socket", po::value<std::string>(), "kbvd's control socket (default: kbvd.socket, $KBV_SOCKET, /run/kbvd/control.sock)")(
      "epoch", po::value<uint64_t>(), "the epoch to evaluate (standalone; through kbvd it must be kbvd's)")(
      "output", po::value<std::string>(), "output folder (default: output_dir)")(
      "device", po::value<std::string>(), "standalone: host or cuda")(
      "gpus", po::value<std::string>(), "standalone cuda: GPU ordinals, e.g. 0,1 (one evaluation at a time on each)")(
      "jobs", po::value<int>(), "standalone host: evaluations at once")(
      "key-file", po::value<std::string>(), "standalone: the secret key")(
      "budget-evaluations", po::value<int64_t>(), "start at most N evaluations")(
      "budget-wall-s", po::value<double>(), "start no evaluation after S seconds, and stop running ones")(
      "shard", po::value<std::string>(), "evaluate shard I of N (I/N): candidates grouped by problem; no report unless --report")(
      "report", "write the reports even for one shard of several")(
      "no-report", "do not write the reports");
  po::options_description hidden;
  hidden.add_options()("config", po::value<std::string>(), "sweep YAML");
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const std::exception& error) {
    std::cerr << "kbv sweep: " << error.what() << "\n" << options;
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << options;
    return 0;
  }
  if (!vm.count("config")) {
    std::cerr << "kbv sweep: no sweep file given (usage: kbv sweep SWEEP.yaml; configs/sweep.yaml is an example)\n" << options;
    return kExitUsage;
  }
  if (vm.count("standalone") && vm.count("kbvd")) {
    std::cerr << "kbv sweep: --standalone and --kbvd exclude each other; fix: give one of them\n";
    return kExitUsage;
  }
  if (vm.count("report") && vm.count("no-report")) {
    std::cerr << "kbv sweep: --report and --no-report exclude each other; fix: give one of them\n";
    return kExitUsage;
  }
  sweep::SweepOptions o;
  o.config_file = vm["config"].as<std::string>();
  o.evaluator = executable_directory() / "kbv";
  if (vm.count("standalone")) o.mode = sweep::Mode::standalone;
  if (vm.count("kbvd")) o.mode = sweep::Mode::kbvd;
  if (vm.count("socket")) o.socket = vm["socket"].as<std::string>();
  if (vm.count("epoch")) o.epoch = vm["epoch"].as<uint64_t>();
  if (vm.count("output")) o.output_dir = vm["output"].as<std::string>();
  if (vm.count("key-file")) o.key_file = vm["key-file"].as<std::string>();
  if (vm.count("device")) {
    o.device = vm["device"].as<std::string>();
    if (*o.device != "host" && *o.device != "cuda") {
      std::cerr << "kbv sweep: --device must be host or cuda, got '" << *o.device << "'\n";
      return kExitUsage;
    }
  }
  if (vm.count("gpus")) {
    try {
      o.gpus = parse_gpus(vm["gpus"].as<std::string>());
    } catch (const std::exception&) {
      std::cerr << "kbv sweep: --gpus '" << vm["gpus"].as<std::string>() << "' is not a list of GPU ordinals; fix: write e.g. --gpus 0,1\n";
      return kExitUsage;
    }
  }
  if (vm.count("jobs")) {
    o.jobs = vm["jobs"].as<int>();
    if (*o.jobs < 1) {
      std::cerr << "kbv sweep: --jobs must be at least 1\n";
      return kExitUsage;
    }
  }
  if (vm.count("budget-evaluations")) o.budget_evaluations = vm["budget-evaluations"].as<int64_t>();
  if (vm.count("budget-wall-s")) o.budget_wall_s = vm["budget-wall-s"].as<double>();
  if (o.budget_evaluations.value_or(0) < 0 || o.budget_wall_s.value_or(0) < 0) {
    std::cerr << "kbv sweep: budgets cannot be negative (0 means no limit)\n";
    return kExitUsage;
  }
  if (vm.count("shard")) {
    try {
      o.shard = sweep::parse_shard(vm["shard"].as<std::string>());
    } catch (const std::invalid_argument& error) {
      std::cerr << "kbv sweep: " << error.what() << "\n";
      return kExitUsage;
    }
  }
  if (vm.count("report")) o.write_report = true;
  if (vm.count("no-report")) o.write_report = false;
  o.terminal = ::isatty(STDERR_FILENO) != 0;
  return sweep::run_sweep(o);
}

}  // namespace kbv::cli
