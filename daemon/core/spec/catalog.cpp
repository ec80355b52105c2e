// spec/catalog.cpp — load every problem YAML of a directory and find problems by name.
#include "spec/catalog.hpp"
#include "spec/name_suggestions.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace kbv {

std::vector<std::filesystem::path> yaml_files(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error)) return files;
  // Non-throwing: a link loop or an unreadable sub-folder beside the specs is not a problem file
  // (it gave a raw "filesystem error" with no file or fix); an unreadable problems folder is.
  std::filesystem::directory_iterator entries(directory, error);
  if (error)
    throw SpecError(directory.string(), "(folder)", "cannot be listed: " + error.message(), "make the problems folder readable");
  for (const auto& entry : entries) {
    std::error_code entry_error;
    if (entry.path().extension() == ".yaml" && entry.is_regular_file(entry_error)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void ProblemCatalog::add(Problem problem, const std::filesystem::path& file) const {
  if (problems_.count(problem.name))
    throw SpecError(file.string(), "name", "problem '" + problem.name + "' is also defined in " + problems_.at(problem.name).file,
                    "give each problem a unique name");
  if (file.stem().string() != problem.name)
    throw SpecError(file.string(), "name", "problem '" + problem.name + "' lives in a file named " + file.filename().string(),
                    "name the file " + problem.name + ".yaml");
  if (problem.kernelbench) {
    const std::pair<int, int> key{problem.kernelbench->level, problem.kernelbench->id};
    if (kernelbench_.count(key))
      throw SpecError(file.string(), "kernelbench",
                      "KernelBench L" + std::to_string(key.first) + " #" + std::to_string(key.second) + " is also reproduced by problem '" +
                          kernelbench_.at(key) + "' (" + problems_.at(kernelbench_.at(key)).file + ")",
                      "keep one problem per KernelBench problem: drop the kernelbench: fields of the one that differs, or delete the import");
    kernelbench_.emplace(key, problem.name);
  }
  problems_.emplace(problem.name, std::move(problem));
}

void ProblemCatalog::load_file(const std::filesystem::path& file, bool imported) const {
  if (!loaded_files_.insert(file).second) return;
  if (!imported) {
    add(load_problem_file(file), file);
    return;
  }
  try {
    add(load_problem_file(file), file);
  } catch (const SpecError& spec_error) {
    std::cerr << "kbv: skipping an imported problem: " << spec_error.what() << "\n";
    load_errors_.emplace(file.stem().string(), spec_error);
  }
}

void ProblemCatalog::load_everything() const {
  if (complete_) return;
  for (const auto& file : yaml_files(directory_)) load_file(file, false);
  for (const auto& file : yaml_files(directory_ / kKernelBenchSubdirectory)) load_file(file, true);
  complete_ = true;
}

void ProblemCatalog::load_named(const std::string& name) const {
  if (complete_ || problems_.count(name) || load_errors_.count(name)) return;
  // A name is a file stem only when it is a plain file name: "../x" or "a/b" would reach elsewhere.
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") return;
  std::error_code error;
  const std::filesystem::path file = directory_ / kKernelBenchSubdirectory / (name + ".yaml");
  if (std::filesystem::is_regular_file(file, error)) load_file(file, true);
}

ProblemCatalog ProblemCatalog::open(const std::filesystem::path& directory) {
  ProblemCatalog catalog;
  catalog.directory_ = directory;
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error))
    throw SpecError(directory.string(), "(directory)", "is not a readable directory",
                    "point --problems-dir or KBV_PROBLEMS_DIR at kbv's problems/ folder");
  for (const auto& file : yaml_files(directory)) catalog.load_file(file, false);
  return catalog;
}

ProblemCatalog ProblemCatalog::load(const std::filesystem::path& directory) {
  ProblemCatalog catalog = open(directory);
  catalog.load_everything();
  return catalog;
}

bool ProblemCatalog::contains(const std::string& name) const {
  load_named(name);
  if (!problems_.count(name) && !load_errors_.count(name)) load_everything();
  return problems_.count(name) != 0;
}

const Problem& ProblemCatalog::get(const std::string& name) const {
  if (!contains(name)) {
    if (auto failed = load_errors_.find(name); failed != load_errors_.end()) throw failed->second;
    std::vector<std::string> known;
    for (const auto& [known_name, problem] : problems_) known.push_back(known_name);
    throw SpecError(directory_.string(), "problem", "unknown problem '" + name + "'", unknown_name_fix(name, known, "kbv problems"));
  }
  return problems_.at(name);
}

std::vector<std::string> ProblemCatalog::names() const {
  load_everything();
  std::vector<std::string> result;
  for (const auto& [name, problem] : problems_) result.push_back(name);
  return result;
}

const Problem* ProblemCatalog::find_kernelbench(int level, int id) const {
  load_everything();
  auto it = kernelbench_.find({level, id});
  return it == kernelbench_.end() ? nullptr : &problems_.at(it->second);
}

const std::map<std::string, SpecError>& ProblemCatalog::load_errors() const {
  load_everything();
  return load_errors_;
}

std::filesystem::path default_problems_directory() {
  if (const char* env = std::getenv("KBV_PROBLEMS_DIR"); env && *env) return env;
  if (std::filesystem::is_directory(KBV_SOURCE_PROBLEMS_DIR)) return KBV_SOURCE_PROBLEMS_DIR;
  return KBV_INSTALL_PROBLEMS_DIR;
}

}  // namespace kbv
