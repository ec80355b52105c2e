// spec/catalog.cpp — load every problem YAML of a directory and find problems by name.
#include "spec/catalog.hpp"

#include <algorithm>
#include <cstdlib>

namespace kbv {

ProblemCatalog ProblemCatalog::load(const std::filesystem::path& directory) {
  ProblemCatalog catalog;
  catalog.directory_ = directory;
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error))
    throw SpecError(directory.string(), "(directory)", "is not a readable directory",
                    "point --problems-dir or KBV_PROBLEMS_DIR at kbv's problems/ folder");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    Problem problem = load_problem_file(file);
    if (catalog.problems_.count(problem.name))
      throw SpecError(file.string(), "name", "problem '" + problem.name + "' is also defined in " +
                                                 catalog.problems_.at(problem.name).file,
                      "give each problem a unique name");
    if (file.stem().string() != problem.name)
      throw SpecError(file.string(), "name", "problem '" + problem.name + "' lives in a file named " + file.filename().string(),
                      "name the file " + problem.name + ".yaml");
    catalog.problems_.emplace(problem.name, std::move(problem));
  }
  return catalog;
}

const Problem& ProblemCatalog::get(const std::string& name) const {
  auto it = problems_.find(name);
  if (it == problems_.end()) {
    std::string known;
    for (const auto& [known_name, problem] : problems_) known += (known.empty() ? "" : ", ") + known_name;
    throw SpecError(directory_.string(), "problem", "unknown problem '" + name + "'", "use one of: " + known);
  }
  return it->second;
}

std::vector<std::string> ProblemCatalog::names() const {
  std::vector<std::string> result;
  for (const auto& [name, problem] : problems_) result.push_back(name);
  return result;
}

std::filesystem::path default_problems_directory() {
  if (const char* env = std::getenv("KBV_PROBLEMS_DIR"); env && *env) return env;
  if (std::filesystem::is_directory(KBV_SOURCE_PROBLEMS_DIR)) return KBV_SOURCE_PROBLEMS_DIR;
  return KBV_INSTALL_PROBLEMS_DIR;
}

}  // namespace kbv
