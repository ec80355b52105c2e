// tests/support/imported_problem_files.hpp — the imported KernelBench problem files and which of
// them are GPU-only, for listing parameterised tests without parsing every YAML.
//
// Why: gtest builds the parameter lists in every test process, and ctest starts one process per
// test; parsing all 230 imported files with yaml-cpp cost 0.25 s of each of ~2,000 processes.
// A GPU-only file says so on a top-level `gpu_only:` line (scripts/kernelbench/kbimport/emit.py
// writes it); KernelBench/ImportedProblem.LoadsWithItsKernelBenchProvenance checks, file by
// file, that this scan agrees with the loader, so the lists cannot drift from the specs.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace kbv::test {

// File names (NAME.yaml) in `directory`, sorted; none when it does not exist.
inline std::vector<std::string> yaml_file_names(const std::filesystem::path& directory) {
  std::vector<std::string> files;
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Whether the problem file has a top-level `gpu_only:` key (a line starting with it).
inline bool declares_gpu_only(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("gpu_only:", 0) == 0) return true;
  return false;
}

}  // namespace kbv::test
