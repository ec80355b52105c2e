// cli/problems_command.cpp — `kbv problems`: list the problems with their sizes and work, or
// show one (by name or KernelBench's L1/19) in full.
//
// Exit status: 0 listed; 2 usage or bad input (unknown problem, unreadable problem specs).
#include "cli/problems_command.hpp"

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/paths.hpp"
#include "cli/problem_lookup.hpp"
#include "cli/problem_report.hpp"
#include "spec/catalog.hpp"

namespace po = boost::program_options;

namespace kbv::cli {

namespace {

const CommandHelp kHelp = {
    "problems", "problems [NAME | L<level>/<id>] [options]",
    "Without NAME: list the problems kbv knows, with their work at KernelBench's default sizes.\n"
    "With NAME (or KernelBench's reference, e.g. L1/19): show that problem in full: inputs in the order\n"
    "run() receives them, outputs, graph, the attributes a candidate can read, tolerance, and every\n"
    "shape set with its shapes and work. Exit status: 0 shown, 2 usage or bad input."};

int list_problems(const ProblemCatalog& catalog, bool json) {
  nlohmann::json list = nlohmann::json::array();
  if (!json) std::printf("%-24s %5s %-11s %14s %14s  %-18s %s\n", "problem", "level", "kernelbench", "GFLOP", "MB moved", "degenerate classes", "default shapes");
  for (const auto& name : catalog.names()) {
    const Problem& problem = catalog.get(name);
    const ResolvedProblem resolved = resolve_problem(problem, "default");
    const std::string reference = kernelbench_ref(problem);
    const nlohmann::json degenerate = degenerate_classes_json(problem);
    std::string degenerate_names;
    for (const auto& entry : degenerate) degenerate_names += (degenerate_names.empty() ? "" : ",") + entry["class"].get<std::string>();
    std::string shapes;
    for (size_t i = 0; i < resolved.input_shapes.size(); ++i) shapes += (i ? " " : "") + problem.inputs[i].name + to_string(resolved.input_shapes[i]);
    if (json)
      list.push_back({{"name", name}, {"level", problem.level}, {"kernelbench_id", problem.kernelbench_id},
                      {"kernelbench", reference.empty() ? nlohmann::json(nullptr) : nlohmann::json(reference)},
                      {"description", problem.description}, {"flops", resolved.flops}, {"compulsory_bytes", resolved.compulsory_bytes},
                      {"file", problem.file}, {"degenerate_classes", degenerate}});
    else
      std::printf("%-24s %5d %-11s %14.2f %14.1f  %-18s %s\n", name.c_str(), problem.level, reference.empty() ? "-" : reference.c_str(),
                  resolved.flops / 1e9, resolved.compulsory_bytes / 1e6, degenerate_names.empty() ? "none" : degenerate_names.c_str(), shapes.c_str());
  }
  if (json) std::cout << list.dump(2) << "\n";
  else std::cout << "kbv problems NAME shows one in full\n";
  return kExitOk;
}

}  // namespace

int problems_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("json", "print JSON instead of text")(
      "problems-dir", po::value<std::string>()->value_name("DIR"), "problem specs directory (default: $KBV_PROBLEMS_DIR, else the installed or bundled problems/)");
  int exit_code = kExitOk;
  const auto values = parse_command_line(kHelp, options, args, exit_code, {{"name", 1}});
  if (!values) return exit_code;
  const bool json = values->count("json") != 0;
  try {
    const ProblemCatalog catalog =
        ProblemCatalog::load(values->count("problems-dir") ? std::filesystem::path((*values)["problems-dir"].as<std::string>()) : default_problems_dir());
    const auto names = positional_values(*values, "name");
    if (names.empty()) return list_problems(catalog, json);
    const nlohmann::json described = describe_problem(catalog.get(resolve_problem_name(catalog, names.front())));
    if (json) std::cout << described.dump(2) << "\n";
    else print_problem(std::cout, described);
    return kExitOk;
  } catch (const std::exception& error) {
    std::cerr << "kbv problems: " << error.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace kbv::cli
