// cli/problems_command.cpp — `kbv problems`: list the problems with their sizes and work (all,
// or those of one level and source: --level, --source), show one (by name or KernelBench's
// L1/19) in full, or print the primitive ops (`--ops`: the op table of docs/problem-spec.md,
// generated from daemon/ops).
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
#include "ops/op_table.hpp"
#include "spec/catalog.hpp"

namespace po = boost::program_options;

namespace kbv::cli {

namespace {

const CommandHelp kHelp = {
    "problems", "problems [NAME | L<level>/<id>] [--level N] [--source kernelbench|curated] [options]",
    "Without NAME: list the problems kbv knows, with their work at KernelBench's default sizes; --level N keeps those of\n"
    "one KernelBench level, --source kernelbench those imported from KernelBench (problems/kernelbench/), --source curated\n"
    "kbv's hand-written ones; --classes adds each problem's degenerate input classes (probed on the host).\n"
    "With NAME (or KernelBench's reference, e.g. L1/19): show that problem in full: inputs in the order\n"
    "run() receives them, outputs, graph, the attributes a candidate can read, tolerance, and every\n"
    "shape set with its shapes and work. --ops: the primitive ops problems are built from (--markdown: the\n"
    "table docs/problem-spec.md carries). Exit status: 0 shown, 2 usage or bad input."};

// The listing's word for where a problem comes from: kernelbench (imported) or curated (written for kbv).
std::string source_name(const Problem& problem) { return problem.source == "kernelbench" ? "kernelbench" : "curated"; }

// Which problems the list shows: a level (0: any) and a source (empty: any).
struct ListFilter {
  int level = 0;
  std::string source;  // "kernelbench" or "curated"

  bool keeps(const Problem& problem) const {
    if (level > 0 && problem.level != level) return false;
    if (source.empty()) return true;
    return (problem.source == "kernelbench") == (source == "kernelbench");
  }
};

// `classes`: probe each listed problem's input classes on the host (about 0.1 s a problem, so
// the plain list, which kbvd reads at every start, leaves it out).
int list_problems(const ProblemCatalog& catalog, const ListFilter& filter, bool json, bool classes) {
  nlohmann::json list = nlohmann::json::array();
  if (!json)
    std::printf("%-24s %5s %-11s %14s %14s  %s%s\n", "problem", "level", "kernelbench", "GFLOP", "MB moved",
                classes ? "degenerate classes  " : "", "default shapes");
  size_t shown = 0;
  for (const auto& name : catalog.names()) {
    const Problem& problem = catalog.get(name);
    if (!filter.keeps(problem)) continue;
    ++shown;
    const ResolvedProblem resolved = resolve_problem(problem, "default");
    const std::string reference = kernelbench_ref(problem);
    std::string not_probed;
    const nlohmann::json degenerate = classes ? degenerate_classes_json(problem, &not_probed) : nlohmann::json();
    std::string degenerate_names;
    for (const auto& entry : degenerate) degenerate_names += (degenerate_names.empty() ? "" : ",") + entry["class"].get<std::string>();
    std::string degenerate_column;  // "%-18s  " of the names, never cut (all six classes run past 18)
    if (classes) {
      degenerate_column = degenerate.is_null() ? (problem.gpu_only_reason.empty() ? "not probed (memory)" : "not probed (GPU only)")
                          : degenerate_names.empty() ? "none" : degenerate_names;
      degenerate_column += std::string(degenerate_column.size() < 18 ? 18 - degenerate_column.size() : 0, ' ') + "  ";
    }
    std::string shapes;
    for (size_t i = 0; i < resolved.input_shapes.size(); ++i) shapes += (i ? " " : "") + problem.inputs[i].name + to_string(resolved.input_shapes[i]);
    if (json) {
      list.push_back({{"name", name}, {"level", problem.level}, {"kernelbench_id", problem.kernelbench_id}, {"source", source_name(problem)},
                      {"kernelbench", reference.empty() ? nlohmann::json(nullptr) : nlohmann::json(reference)},
                      {"description", problem.description}, {"flops", resolved.flops}, {"compulsory_bytes", resolved.compulsory_bytes},
                      {"file", problem.file}});
      if (classes) list.back()["degenerate_classes"] = degenerate;
      if (classes && !not_probed.empty()) list.back()["degenerate_classes_not_probed"] = not_probed;
      if (!problem.gpu_only_reason.empty()) list.back()["gpu_only"] = problem.gpu_only_reason;
    } else {
      std::printf("%-24s %5d %-11s %14.2f %14.1f  %s%s\n", name.c_str(), problem.level, reference.empty() ? "-" : reference.c_str(),
                  resolved.flops / 1e9, resolved.compulsory_bytes / 1e6, degenerate_column.c_str(), shapes.c_str());
    }
  }
  // An empty catalog is a wrong folder, not an empty answer, in JSON as in text (review: --json
  // printed [] and exited 0, so a script read "no problems" as success).
  if (catalog.names().empty()) {
    std::cerr << "kbv problems: no problems in " << catalog.directory().string()
              << " (fix: point --problems-dir or KBV_PROBLEMS_DIR at a folder of problem specs)\n";
    return kExitBadInput;
  }
  if (json) std::cout << list.dump(2) << "\n";
  else std::cout << (shown == 0 ? "no problem matches the filter\n" : "") << "kbv problems NAME shows one in full\n";
  return kExitOk;
}

}  // namespace

int problems_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("json", "print JSON instead of text")("ops", "list the primitive ops instead of the problems")(
      "markdown", "with --ops: the op table as Markdown (docs/problem-spec.md)")(
      "classes", "with the list: probe each problem's input classes on the host at small shapes and show the degenerate ones "
                 "(about 0.1 s a problem; one problem shown in full always has them)")(
      "level", po::value<int>()->value_name("N"), "list only the problems of KernelBench level N")(
      "source", po::value<std::string>()->value_name("S"), "list only kernelbench (imported) or curated (hand-written) problems")(
      "problems-dir", po::value<std::string>()->value_name("DIR"), "problem specs directory (default: $KBV_PROBLEMS_DIR, else the installed or bundled problems/)");
  int exit_code = kExitOk;
  const auto values = parse_command_line(kHelp, options, args, exit_code, {{"name", 1}});
  if (!values) return exit_code;
  const bool json = values->count("json") != 0;
  if (values->count("markdown") && !values->count("ops")) return usage_error("problems", "--markdown needs --ops");
  ListFilter filter;
  if (values->count("level")) {
    filter.level = (*values)["level"].as<int>();
    if (filter.level < 1) return usage_error("problems", "--level must be a KernelBench level (1, 2, 3), got " + std::to_string(filter.level));
  }
  if (values->count("source")) {
    filter.source = (*values)["source"].as<std::string>();
    if (filter.source != "kernelbench" && filter.source != "curated")
      return usage_error("problems", "--source must be kernelbench or curated, got '" + filter.source + "'");
  }
  const bool filtered = filter.level > 0 || !filter.source.empty();
  if (values->count("ops")) {
    if (filtered) return usage_error("problems", "--level and --source filter the problem list, not --ops");
    std::cout << (values->count("markdown") ? kbv::op_table_markdown() : kbv::op_table_text());
    return kExitOk;
  }
  try {
    const ProblemCatalog catalog =
        ProblemCatalog::load(values->count("problems-dir") ? std::filesystem::path((*values)["problems-dir"].as<std::string>()) : default_problems_dir());
    const auto names = positional_values(*values, "name");
    if (names.empty()) return list_problems(catalog, filter, json, values->count("classes") != 0);
    if (filtered) return usage_error("problems", "--level and --source filter the list; with NAME kbv problems shows that one problem");
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
