// spec/catalog.hpp — the set of problems found in a problems/ directory, by name.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "spec/problem.hpp"

namespace kbv {

class ProblemCatalog {
 public:
  // Loads every *.yaml in `directory` (a bad file throws SpecError naming it), then every
  // *.yaml in its `kernelbench/` folder (problems scripts/kernelbench/kbv-import-kernelbench
  // wrote). A bad imported file does not stop the others: its SpecError is kept (load_errors(),
  // and get() of its name throws it) and reported on stderr.
  static ProblemCatalog load(const std::filesystem::path& directory);

  // The problem called `name`; throws SpecError listing the known names when there is none,
  // or the file's own SpecError when `name` is an imported problem that failed to load.
  const Problem& get(const std::string& name) const;
  bool contains(const std::string& name) const { return problems_.count(name) != 0; }
  std::vector<std::string> names() const;
  const std::filesystem::path& directory() const { return directory_; }

  // The problem that reproduces KernelBench level `level` problem `id` (its `kernelbench:`
  // fields), or nullptr.
  const Problem* find_kernelbench(int level, int id) const;
  // Imported files that failed to load: file stem -> the loader's error (file, field, fix).
  const std::map<std::string, SpecError>& load_errors() const { return load_errors_; }

 private:
  void add(Problem problem, const std::filesystem::path& file);

  std::filesystem::path directory_;
  std::map<std::string, Problem> problems_;
  std::map<std::pair<int, int>, std::string> kernelbench_;  // (level, id) -> problem name
  std::map<std::string, SpecError> load_errors_;
};

// The folder of imported KernelBench problems inside a problems/ directory.
inline constexpr const char* kKernelBenchSubdirectory = "kernelbench";

// Where problems live: $KBV_PROBLEMS_DIR, else the install/source directory baked in at build.
std::filesystem::path default_problems_directory();

}  // namespace kbv
