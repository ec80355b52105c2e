// cli/problems_command.cpp — list problems with their sizes and work, or the primitive ops (the
// op table of docs/problem-spec.md); create a key file.
#include "cli/problems_command.hpp"

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/paths.hpp"
#include "inputs/secret_key.hpp"
#include "ops/op_table.hpp"
#include "spec/catalog.hpp"

namespace kbv::cli {

int problems_command(const std::vector<std::string>& args) {
  bool json = false, ops = false, markdown = false;
  std::filesystem::path directory = default_problems_dir();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--json") json = true;
    else if (args[i] == "--ops") ops = true;
    else if (args[i] == "--markdown") markdown = true;
    else if (args[i] == "--problems-dir" && i + 1 < args.size()) directory = args[++i];
    else {
      std::cerr << "kbv problems: unknown option '" << args[i] << "' (usage: kbv problems [--json] [--problems-dir D] | --ops [--markdown])\n";
      return 2;
    }
  }
  if (markdown && !ops) {
    std::cerr << "kbv problems: --markdown formats the op table; add --ops\n";
    return 2;
  }
  if (ops) {
    std::cout << (markdown ? op_table_markdown() : op_table_text());
    return 0;
  }
  try {
    const ProblemCatalog catalog = ProblemCatalog::load(directory);
    nlohmann::json list = nlohmann::json::array();
    if (!json) std::printf("%-24s %5s %14s %14s  %s\n", "problem", "level", "GFLOP", "MB moved", "default shapes");
    for (const auto& name : catalog.names()) {
      const Problem& problem = catalog.get(name);
      const ResolvedProblem resolved = resolve_problem(problem, "default");
      std::string shapes;
      for (size_t i = 0; i < resolved.input_shapes.size(); ++i) shapes += (i ? " " : "") + problem.inputs[i].name + to_string(resolved.input_shapes[i]);
      if (json) list.push_back({{"name", name}, {"level", problem.level}, {"kernelbench_id", problem.kernelbench_id},
                                {"description", problem.description}, {"flops", resolved.flops}, {"compulsory_bytes", resolved.compulsory_bytes},
                                {"file", problem.file}});
      else std::printf("%-24s %5d %14.2f %14.1f  %s\n", name.c_str(), problem.level, resolved.flops / 1e9, resolved.compulsory_bytes / 1e6, shapes.c_str());
    }
    if (json) std::cout << list.dump(2) << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "kbv problems: " << error.what() << "\n";
    return 2;
  }
}

int keygen_command(const std::vector<std::string>& args) {
  std::filesystem::path path = inputs::default_key_path();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--key-file" && i + 1 < args.size()) path = args[++i];
    else {
      std::cerr << "kbv keygen: unknown option '" << args[i] << "' (usage: kbv keygen [--key-file F])\n";
      return 2;
    }
  }
  try {
    inputs::SecretKey::create(path);
    std::cout << "created " << path.string() << " (mode 0600; keep it private: it decides every hidden input)\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "kbv keygen: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace kbv::cli
