// cli/report_command.cpp — parse `kbv report` options, gather the rows, write the four files.
//
// Exit status: 0 reports written and every planned evaluation has a verdict; 1 written, but some
// have none (shards missing, budget); 2 usage, or nothing to report from (the message says why).
#include "cli/report_command.hpp"

#include <iostream>

#include "cli/command_line.hpp"
#include "cli/option_types.hpp"
#include "client/control_client.hpp"
#include "client/json_dump.hpp"
#include "client/printable.hpp"
#include "sweep/report/report_builder.hpp"
#include "sweep/report/report_sources.hpp"
#include "sweep/report/report_writer.hpp"
#include "sweep/sweep_config.hpp"
#include "sweep/sweep_folder.hpp"

namespace po = boost::program_options;

namespace kbv::cli {
namespace {

constexpr int kExitIncomplete = 1;
// Epochs before the report's in which a pass that fails now counts as a regression (kbvd source;
// a sweep folder's plan says its own). The sweep configuration's default (docs/sweeps.md).
constexpr int kDefaultWindow = 4;

}  // namespace

int report_command(const std::vector<std::string>& args) {
  const CommandHelp help = {
      "report", "report SWEEP_DIR [options]  |  report --kbvd --out DIR [options]",
      "Write a sweep's reports (report.json, results.csv, report.md, report.html) from its output folder: the latest\n"
      "plan of the epoch with its result records, the shards of a job array merged (missing ones named); by default\n"
      "as a new run in SWEEP_DIR/runs and at its top, compared with the sweep before. With --kbvd, a report of one\n"
      "epoch from kbvd's store. Exit status: 0 written and every planned evaluation has a verdict, 1 written but some\n"
      "have none (shards missing, budget), 2 usage or nothing to report from (docs/report-schema.md)."};
  po::options_description options;
  options.add_options()("epoch", po::value<Unsigned>()->value_name("N"), "the epoch (default: the folder's newest, or kbvd's current)")(
      "out", po::value<std::string>()->value_name("DIR"), "write the reports here only")(
      "previous", po::value<std::string>()->value_name("REPORT.json"), "compare with this report (default for a folder: its previous sweep)")(
      "no-previous", "compare with nothing")(
      "kbvd", "read kbvd's store through its control socket")(
      "socket", po::value<std::string>()->value_name("PATH"), "kbvd's control socket (default: $KBV_SOCKET, /run/kbvd/control.sock)")(
      "window", po::value<int>()->default_value(kDefaultWindow)->value_name("N"), "--kbvd: epochs looked back for regressions");
  int exit_code = kExitOk;
  const auto values = parse_command_line(help, options, args, exit_code, {{"folder", 1}});
  if (!values) return exit_code;
  const po::variables_map& vm = *values;
  const auto folder_arg = positional_values(vm, "folder");
  const bool from_kbvd = vm.count("kbvd") != 0;
  if (from_kbvd == !folder_arg.empty()) return usage_error("report", "give either a sweep output folder or --kbvd");
  if (from_kbvd && !vm.count("out")) return usage_error("report", "--kbvd needs --out DIR (kbvd has no sweep folder to write into)");
  if (vm.count("previous") && vm.count("no-previous")) return usage_error("report", "--previous and --no-previous exclude each other");
  if (const int window = vm["window"].as<int>(); window < 0 || window > sweep::kMaxReverifyEpochs)
    return usage_error("report", "--window " + std::to_string(window) + " is outside 0 to " + std::to_string(sweep::kMaxReverifyEpochs) +
                                     " (epochs looked back; 0 looks at none)");

  try {
    sweep::report::ReportInput input;
    std::optional<sweep::SweepFolder> folder;
    if (from_kbvd) {
      const std::filesystem::path socket = vm.count("socket") ? std::filesystem::path(vm["socket"].as<std::string>()) : control::default_socket_path();
      std::optional<uint64_t> epoch;
      if (vm.count("epoch")) epoch = vm["epoch"].as<Unsigned>().value;
      input = sweep::report::input_from_kbvd(socket, epoch, vm["window"].as<int>());
    } else {
      folder.emplace(std::filesystem::absolute(folder_arg.front()));
      const auto epoch = vm.count("epoch") ? vm["epoch"].as<Unsigned>().value : sweep::report::latest_planned_epoch(*folder);
      input = sweep::report::input_from_folder(*folder, epoch);
      if (!vm.count("previous") && !vm.count("no-previous"))
        input.previous = sweep::report::previous_report(*folder, epoch, input.plan_id, &input.previous_run, &input.issues);
    }
    if (vm.count("previous")) {
      const std::string previous = vm["previous"].as<std::string>();
      input.previous = sweep::read_json_file(previous);
      if (const auto damage = sweep::report::previous_report_damage(*input.previous))
        throw sweep::report::SourceError(previous + ": --previous is not a report to compare with (" + *damage +
                                         "); fix: name a report.json that kbv sweep or kbv report wrote, or pass --no-previous");
      input.previous_run = previous;
    }
    std::vector<std::filesystem::path> targets;
    if (vm.count("out")) {
      targets.emplace_back(vm["out"].as<std::string>());
    } else {
      targets.push_back(folder->create_run(input.epoch));
      // The folder's top holds the newest epoch's reports; an older epoch's stay in their run folder.
      if (sweep::report::is_newest_epoch(*folder, input.epoch)) targets.push_back(folder->root());
      input.run = {{"id", targets.front().filename().string()}};
    }
    const auto report = sweep::report::build_report(input);
    for (const auto& target : targets) {
      const auto written = sweep::report::write_report_files(report, target);
      if (!written.vega_error.empty()) std::cerr << "kbv report: report.html has no plots: " << written.vega_error << "\n";
    }
    for (const auto& issue : input.issues) std::cerr << "kbv report: left out: " << control::printable(issue.text()) << "\n";
    const auto& done = report["completeness"];
    std::cerr << "kbv report: " << done["evaluated"] << " of " << done["planned"] << " planned evaluations have a verdict; reports in "
              << targets.front().string() << "\n";
    const auto& missing = done["shards"]["missing"];
    if (!missing.empty()) std::cerr << "kbv report: shards missing (never started): " << control::json_dump(missing) << "\n";
    return done["complete"].get<bool>() ? 0 : kExitIncomplete;
  } catch (const sweep::report::SourceError& error) {
    std::cerr << "kbv report: " << error.what() << "\n";
    return kExitBadInput;
  } catch (const control::ControlError& error) {
    std::cerr << "kbv report: " << error.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& error) {
    std::cerr << "kbv report: " << error.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace kbv::cli
