// kbv_eval.hpp — what the eval tests share: where the kbv binary, candidates and problems are
// (compiled in by CMake, or named by the environment), a test-local secret key, and one `kbv eval … --json` run with its
// parsed report.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace kbv::test {

// A directory under $TMPDIR (or /tmp), removed with everything in it when destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Compiled in by CMake; KBV_TEST_KBV_BINARY, KBV_TEST_CANDIDATE_DIR and KBV_TEST_PROBLEMS_DIR
// in the environment override them (a test binary run from a bundle on another machine).
std::filesystem::path kbv_binary();
std::filesystem::path candidate_dir();                              // ${KBV_CANDIDATE_DIR}
std::filesystem::path host_candidate(const std::string& problem);   // libhost_<problem>.so
std::filesystem::path hostile_candidate(const std::string& name);   // libhostile_<name>.so
std::filesystem::path hostile_file(const std::string& file_name);   // bad_*.so beside them
std::filesystem::path problems_dir();                                // the source tree's problems/
// Every problem under problems_dir(), bundled and imported, by its file's stem (a spec file is
// named after its problem: docs/problem-spec.md), without loading the catalog.
std::vector<std::string> problem_names();
// True when problem `name`'s spec under problems_dir() has a top-level `gpu_only:` (no small
// set: the host device refuses it), read from the file's text without loading the catalog.
bool is_gpu_only_problem(const std::string& name);
std::vector<std::string> host_candidate_problems();                  // every problem with a host example
const std::filesystem::path& test_key_file();                        // the key every run uses

struct EvalRun {
  CommandResult result;
  nlohmann::json report;     // the JSON object on stdout; null when stdout held none
  std::string parse_error;   // why stdout did not parse, if it did not
  std::string command_line;
};

// `kbv eval <args…> --json --key-file <test key>` with `env` added to kbv's environment.
EvalRun run_kbv_eval(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {});

// Command line, exit status, stdout and the tail of stderr, for assertion messages.
std::string explain(const EvalRun& run);

}  // namespace kbv::test
