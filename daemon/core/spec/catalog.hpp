// spec/catalog.hpp — the set of problems found in a problems/ directory, by name.
#pragma once

#include <filesystem>
#include <map>
#include <set>
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

  // The same catalog, with the imported problems loaded as they are asked for: the top-level
  // files load at once (as load() does), and get() or contains() of an imported name parses only
  // kernelbench/NAME.yaml (load() requires a problem's file to be named after it), with load()'s
  // rules and errors for that file against the top-level problems; names(), find_kernelbench(),
  // load_errors() and a name with no such file load every file, once. Only a second imported
  // file claiming the same KernelBench id goes unnoticed until then (the importer writes one
  // per id; `kbv problems` and the tests load them all). For the commands that need one problem
  // (eval, build, prompt, export): yaml-cpp takes 0.3 s to parse all 230 problem files, a sixth
  // of a host `kbv eval`. One thread at a time.
  static ProblemCatalog open(const std::filesystem::path& directory);

  // The problem called `name`; throws SpecError listing the known names when there is none,
  // or the file's own SpecError when `name` is an imported problem that failed to load.
  const Problem& get(const std::string& name) const;
  bool contains(const std::string& name) const;
  std::vector<std::string> names() const;
  const std::filesystem::path& directory() const { return directory_; }

  // The problem that reproduces KernelBench level `level` problem `id` (its `kernelbench:`
  // fields), or nullptr.
  const Problem* find_kernelbench(int level, int id) const;
  // Imported files that failed to load: file stem -> the loader's error (file, field, fix).
  const std::map<std::string, SpecError>& load_errors() const;

 private:
  void add(Problem problem, const std::filesystem::path& file) const;
  // Loads `file` (of the top-level folder, or imported) unless it was loaded already.
  void load_file(const std::filesystem::path& file, bool imported) const;
  // Every file not loaded yet (open()'s catalog, the first time it needs them all).
  void load_everything() const;
  // open()'s catalog: the imported file named after `name`, when there is one.
  void load_named(const std::string& name) const;

  std::filesystem::path directory_;
  // Filled as files load (all at once by load(), on demand by open()), hence mutable.
  mutable std::map<std::string, Problem> problems_;
  mutable std::map<std::pair<int, int>, std::string> kernelbench_;  // (level, id) -> problem name
  mutable std::map<std::string, SpecError> load_errors_;
  mutable std::set<std::filesystem::path> loaded_files_;
  mutable bool complete_ = false;  // every file loaded
};

// The folder of imported KernelBench problems inside a problems/ directory.
inline constexpr const char* kKernelBenchSubdirectory = "kernelbench";

// The *.yaml files directly in `directory` (problem specs), sorted; none when it is not a directory.
std::vector<std::filesystem::path> yaml_files(const std::filesystem::path& directory);

// Where problems live: $KBV_PROBLEMS_DIR, else the install/source directory baked in at build.
std::filesystem::path default_problems_directory();

}  // namespace kbv
