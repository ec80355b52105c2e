// spec/catalog.hpp — the set of problems found in a problems/ directory, by name.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "spec/problem.hpp"

namespace kbv {

class ProblemCatalog {
 public:
  // Loads every *.yaml in `directory`. A bad file throws SpecError naming it.
  static ProblemCatalog load(const std::filesystem::path& directory);

  // The problem called `name`; throws SpecError listing the known names when there is none.
  const Problem& get(const std::string& name) const;
  bool contains(const std::string& name) const { return problems_.count(name) != 0; }
  std::vector<std::string> names() const;
  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path directory_;
  std::map<std::string, Problem> problems_;
};

// Where problems live: $KBV_PROBLEMS_DIR, else the install/source directory baked in at build.
std::filesystem::path default_problems_directory();

}  // namespace kbv
