// cli/prompt_command.cpp — parse `kbv prompt`'s options, find the problem, print its prompt.
//
// Exit status: 0 printed; 2 usage or bad input (no or unknown problem, unknown device or shape
// set, unreadable problem specs). The message names what was asked and the fix.
#include "cli/prompt_command.hpp"

#include <iostream>

#include "cli/candidate_device.hpp"
#include "cli/command_line.hpp"
#include "cli/paths.hpp"
#include "cli/problem_lookup.hpp"
#include "cli/prompt_text.hpp"
#include "spec/catalog.hpp"

namespace po = boost::program_options;

namespace kbv::cli {

namespace {

const CommandHelp kHelp = {
    "prompt", "prompt PROBLEM [--device cuda|host] [--shapes default|small]",
    "Print a self-contained prompt (Markdown) from which a language model can write a candidate for PROBLEM (a name, or\n"
    "KernelBench's L1/19): the problem and its KernelBench source, its PyTorch forward (from the ops' pytorch forms),\n"
    "inputs and outputs in order with roles, shapes and dtypes, attributes, the tolerance, the plugin ABI with a complete\n"
    "example for the device that `kbv build` compiles, and the rules kbv checks (docs/threat-model.md).\n"
    "Exit status: 0 printed, 2 usage or bad input."};

}  // namespace

int prompt_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("device", po::value<std::string>()->default_value("cuda"), "cuda or host: the device the candidate is written for")(
      "shapes", po::value<std::string>()->value_name("SET"), "shape set whose shapes the prompt quotes (default: default on cuda, small on host, as kbv eval)")(
      "problems-dir", po::value<std::string>()->value_name("DIR"), "problem specs directory (default: $KBV_PROBLEMS_DIR, else the installed or bundled problems/)");
  int exit_code = kExitOk;
  const auto values = parse_command_line(kHelp, options, args, exit_code, {{"problem", 1}});
  if (!values) return exit_code;
  const auto names = positional_values(*values, "problem");
  if (names.empty()) return usage_error("prompt", "no problem given (usage: kbv " + kHelp.synopsis + "; kbv problems lists them)");
  const std::string device_text = (*values)["device"].as<std::string>();
  const auto device = parse_candidate_device(device_text);
  if (!device) return usage_error("prompt", "--device must be cuda or host, got '" + device_text + "'");
  try {
    const ProblemCatalog catalog =
        ProblemCatalog::open(values->count("problems-dir") ? std::filesystem::path((*values)["problems-dir"].as<std::string>()) : default_problems_dir());
    const Problem& problem = catalog.get(resolve_problem_name(catalog, names.front()));
    const std::string shape_set = values->count("shapes") ? (*values)["shapes"].as<std::string>() : default_shape_set(*device);
    if (!problem.shape_sets.count(shape_set)) {
      std::string known;
      for (const auto& entry : problem.shape_sets) known += (known.empty() ? "" : ", ") + entry.first;
      std::cerr << "kbv prompt: problem " << problem.name << " has no shape set '" << shape_set << "'"
                << (problem.gpu_only_reason.empty() ? "" : ": it runs on the GPU only (" + problem.gpu_only_reason + ")")
                << " (fix: --shapes one of " << known << ")\n";
      return kExitBadInput;
    }
    std::cout << prompt_text(problem, *device, shape_set);
    return kExitOk;
  } catch (const std::exception& error) {
    std::cerr << "kbv prompt: " << error.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace kbv::cli
