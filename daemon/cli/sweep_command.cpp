// cli/sweep_command.cpp — parse `kbv sweep` options into the sweep engine's overrides.
#include "cli/sweep_command.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli/command_line.hpp"
#include "cli/option_types.hpp"
#include "cli/paths.hpp"
#include "sweep/sweep_config.hpp"
#include "sweep/sweep_engine.hpp"

namespace po = boost::program_options;

namespace kbv::cli {
namespace {

std::vector<int> parse_gpus(const std::string& text) {
  std::vector<int> gpus;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    std::size_t used = 0;
    const int gpu = std::stoi(item, &used);
    // Each GPU once: two evaluations on one GPU would time each other (review: --gpus 0,0).
    if (used != item.size() || gpu < 0 || std::find(gpus.begin(), gpus.end(), gpu) != gpus.end()) throw std::invalid_argument(item);
    gpus.push_back(gpu);
  }
  if (gpus.empty()) throw std::invalid_argument(text);
  return gpus;
}

}  // namespace

int sweep_command(const std::vector<std::string>& args) {
  const CommandHelp help = {
      "sweep", "sweep SWEEP.yaml [options]",
      "Evaluate a sweep's candidates (folders and globs of .so files with their sidecar manifests, filtered) in the\n"
      "current epoch, plus every candidate that passed in the last N epochs, through kbvd's queue or --standalone;\n"
      "resume where a killed sweep stopped; write report.json, results.csv, report.md and report.html into the\n"
      "output folder (docs/sweeps.md). Options override the file. Exit status: 0 every planned evaluation has a\n"
      "verdict, 1 some have none (budget, signal, kbvd's epoch moved), 2 usage or unusable configuration."};
  po::options_description options;
  options.add_options()("standalone", "evaluate here, one `kbv eval` per candidate, instead of through kbvd")(
      "kbvd", "evaluate through kbvd's queue (the default unless the file says mode: standalone)")(
      "socket", po::value<std::string>()->value_name("PATH"), "kbvd's control socket (default: kbvd.socket, $KBV_SOCKET, /run/kbvd/control.sock)")(
      "epoch", po::value<Unsigned>()->value_name("N"), "the epoch (standalone; through kbvd it must be kbvd's own)")(
      "output", po::value<std::string>()->value_name("DIR"), "output folder (default: output_dir)")(
      "device", po::value<std::string>()->value_name("D"), "standalone: host or cuda")(
      "gpus", po::value<std::string>()->value_name("0,1"), "standalone cuda: GPU ordinals (one evaluation at a time on each)")(
      "jobs", po::value<int>()->value_name("N"), "standalone host: evaluations at once")(
      "key-file", po::value<std::string>()->value_name("F"), "standalone: the secret key")(
      "budget-evaluations", po::value<int64_t>()->value_name("N"), "start at most N evaluations")(
      "budget-wall-s", po::value<PositiveSeconds>()->value_name("S"), "start no evaluation after S seconds, and stop those running")(
      "shard", po::value<std::string>()->value_name("I/N"), "evaluate shard I of N (grouped by problem); no report unless --report")(
      "plan", po::value<std::string>()->value_name("ID"), "standalone: evaluate the plan OUT/epoch-E/plans/ID.json, written by --slurm, "
                                                        "instead of planning again (the Slurm tasks' option)")(
      "report", "write the reports even for one shard of several")(
      "no-report", "do not write the reports")(
      "slurm", "submit the sweep as a Slurm job array (one standalone shard per task, epoch and key fixed now) plus a merge job "
               "running kbv report; again: only the shards not yet complete (docs/sweeps.md, Slurm)")(
      "partition", po::value<std::string>()->value_name("P"), "--slurm: the partition of every job")(
      "gpus-per-task", po::value<int>()->value_name("N"), "--slurm: GPUs of each task (> 0: device cuda; default 1 on cuda, 0 on host)")(
      "array-size", po::value<int>()->value_name("N"), "--slurm: shards, one task each (default: the previous submission's, else one per problem)")(
      "cpus-per-task", po::value<int>()->value_name("N"), "--slurm: CPUs of each task (default: 2 per evaluation it runs at once)")(
      "dry-run", "--slurm: write and print the scripts and the sbatch commands, submit nothing");
  int exit_code = kExitOk;
  const auto values = parse_command_line(help, options, args, exit_code, {{"config", 1}});
  if (!values) return exit_code;
  const po::variables_map& vm = *values;
  const auto config = positional_values(vm, "config");
  if (config.empty()) return usage_error("sweep", "no sweep file given (configs/sweep.yaml is an example)");
  if (vm.count("standalone") && vm.count("kbvd")) return usage_error("sweep", "--standalone and --kbvd exclude each other");
  if (vm.count("report") && vm.count("no-report")) return usage_error("sweep", "--report and --no-report exclude each other");

  sweep::SweepOptions o;
  o.config_file = config.front();
  o.evaluator = executable_directory() / "kbv";
  if (vm.count("standalone")) o.mode = sweep::Mode::standalone;
  if (vm.count("kbvd")) o.mode = sweep::Mode::kbvd;
  if (vm.count("socket")) o.socket = vm["socket"].as<std::string>();
  if (vm.count("epoch")) o.epoch = vm["epoch"].as<Unsigned>().value;
  if (vm.count("output")) o.output_dir = vm["output"].as<std::string>();
  if (vm.count("key-file")) o.key_file = vm["key-file"].as<std::string>();
  if (vm.count("device")) {
    o.device = vm["device"].as<std::string>();
    if (*o.device != "host" && *o.device != "cuda") return usage_error("sweep", "--device must be host or cuda, got '" + *o.device + "'");
  }
  if (vm.count("gpus")) {
    try {
      o.gpus = parse_gpus(vm["gpus"].as<std::string>());
    } catch (const std::exception&) {
      return usage_error("sweep", "--gpus '" + vm["gpus"].as<std::string>() + "' is not a list of distinct GPU ordinals; fix: write e.g. --gpus 0,1");
    }
  }
  // The same bounds as the sweep file's (sweep/sweep_config.hpp; review: --budget-wall-s 1e10
  // overflowed the deadline and stopped the sweep at once, --jobs 1e8 allocated slots until memory ran out).
  if (vm.count("jobs")) {
    o.jobs = vm["jobs"].as<int>();
    if (*o.jobs < 1 || *o.jobs > sweep::kMaxJobs) return usage_error("sweep", fmt::format("--jobs must be 1 to {}", sweep::kMaxJobs));
  }
  if (vm.count("budget-evaluations")) o.budget_evaluations = vm["budget-evaluations"].as<int64_t>();
  if (vm.count("budget-wall-s")) {
    o.budget_wall_s = vm["budget-wall-s"].as<PositiveSeconds>().value;
    if (*o.budget_wall_s > sweep::kMaxWallSeconds)
      return usage_error("sweep", fmt::format("--budget-wall-s must be at most {:.0f} (a year)", sweep::kMaxWallSeconds));
  }
  if (o.budget_evaluations.value_or(0) < 0 || o.budget_wall_s.value_or(0) < 0) return usage_error("sweep", "budgets cannot be negative (0 means no limit)");
  if (vm.count("shard")) {
    try {
      o.shard = sweep::parse_shard(vm["shard"].as<std::string>());
    } catch (const std::invalid_argument& error) {
      return usage_error("sweep", error.what());
    }
  }
  if (vm.count("plan")) {
    o.plan_id = vm["plan"].as<std::string>();
    // A file name in the plans folder: hex digits only, as plan ids are (no path can be named).
    if (o.plan_id->empty() || o.plan_id->size() > 64 || o.plan_id->find_first_not_of("0123456789abcdef") != std::string::npos)
      return usage_error("sweep", "--plan must be a plan id (lowercase hex digits, as in OUT/epoch-E/plans/ID.json)");
    if (!vm.count("standalone") || vm.count("slurm"))
      return usage_error("sweep", "--plan is for the tasks of a Slurm submission, which run --standalone; fix: add --standalone (and drop --slurm)");
  }
  if (vm.count("report")) o.write_report = true;
  if (vm.count("no-report")) o.write_report = false;
  o.terminal = ::isatty(STDERR_FILENO) != 0;
  if (!vm.count("slurm")) {
    for (const char* name : {"partition", "gpus-per-task", "cpus-per-task", "array-size", "dry-run"})
      if (vm.count(name)) return usage_error("sweep", std::string("--") + name + " is an option of --slurm; fix: add --slurm, or drop it");
    return sweep::run_sweep(o);
  }
  if (vm.count("kbvd")) return usage_error("sweep", "--slurm runs every task --standalone; fix: drop --kbvd");
  if (vm.count("shard")) return usage_error("sweep", "--slurm chooses the shards itself; fix: drop --shard and give the number with --array-size N");
  if (vm.count("report")) return usage_error("sweep", "--slurm writes the reports in its merge job; fix: drop --report");
  o.mode = sweep::Mode::standalone;
  sweep::SlurmOptions slurm;
  if (vm.count("partition")) {
    slurm.partition = vm["partition"].as<std::string>();
    if (slurm.partition->empty() || slurm.partition->find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_,.-") != std::string::npos)
      return usage_error("sweep", "--partition must be Slurm partition names (letters, digits, '_', '.', '-', commas between)");
  }
  if (vm.count("gpus-per-task")) {
    slurm.gpus_per_task = vm["gpus-per-task"].as<int>();
    if (*slurm.gpus_per_task < 0) return usage_error("sweep", "--gpus-per-task must be 0 (host) or more; fix: write e.g. --gpus-per-task 1");
  }
  if (vm.count("cpus-per-task")) {
    slurm.cpus_per_task = vm["cpus-per-task"].as<int>();
    if (*slurm.cpus_per_task < 1 || *slurm.cpus_per_task > sweep::kMaxCpusPerTask)
      return usage_error("sweep", fmt::format("--cpus-per-task must be 1 to {}; fix: write e.g. --cpus-per-task 4", sweep::kMaxCpusPerTask));
  }
  if (vm.count("array-size")) {
    slurm.array_size = vm["array-size"].as<int>();
    if (*slurm.array_size < 1 || *slurm.array_size > sweep::kMaxSlurmArraySize)
      return usage_error("sweep", fmt::format("--array-size {} is not a number of shards Slurm can run; fix: give 1 to {} (one task per shard)",
                                              *slurm.array_size, sweep::kMaxSlurmArraySize));
  }
  slurm.dry_run = vm.count("dry-run") != 0;
  return sweep::submit_sweep_to_slurm(o, slurm);
}

}  // namespace kbv::cli
