// tests/support/imported_problem_files.hpp — which imported KernelBench problem files are
// GPU-only, for listing parameterised tests without parsing every YAML (the files themselves:
// spec/catalog.hpp's yaml_files).
//
// Why: gtest builds the parameter lists in every test process, and ctest starts one process per
// test; parsing all 230 imported files with yaml-cpp cost 0.25 s of each of ~2,000 processes.
// A GPU-only file says so on a top-level `gpu_only:` line (scripts/kernelbench/kbimport/emit.py
// writes it); KernelBench/ImportedProblem.LoadsWithItsKernelBenchProvenance checks, file by
// file, that this scan agrees with the loader, so the lists cannot drift from the specs.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace kbv::test {

// Whether the problem file has a top-level `gpu_only:` key (a line starting with it).
inline bool declares_gpu_only(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("gpu_only:", 0) == 0) return true;
  return false;
}

}  // namespace kbv::test
