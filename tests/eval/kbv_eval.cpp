// kbv_eval.cpp — paths from CMake, the test key, and running `kbv eval --json`.
#include "kbv_eval.hpp"

#include <algorithm>
#include <fstream>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace kbv::test {
namespace {

// Generous: an honest host evaluation of a small shape takes a few seconds; a hang is cut by
// kbv's own --timeout-s long before this.
constexpr std::chrono::seconds kKbvTimeout{180};
constexpr size_t kStderrTail = 4000;

// A compiled-in path, unless the environment names another: the test binaries then also run
// from a bundle copied to a machine where the build tree does not exist (the GPU machine).
std::filesystem::path configured(const char* variable, const char* compiled) {
  const char* value = std::getenv(variable);
  return value != nullptr && *value != '\0' ? value : compiled;
}

}  // namespace

std::filesystem::path kbv_binary() { return configured("KBV_TEST_KBV_BINARY", KBV_TEST_KBV_BINARY); }
std::filesystem::path candidate_dir() { return configured("KBV_TEST_CANDIDATE_DIR", KBV_TEST_CANDIDATE_DIR); }

// One key for the whole test binary, in its own temporary directory; kbv creates the file on
// first use (never the user's ~/.local/state/kbv/secret.key).
const std::filesystem::path& test_key_file() {
  static const TempDir key_dir;
  static const std::filesystem::path key = key_dir.path() / "secret.key";
  return key;
}

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/kbv-eval-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::system_error(errno, std::generic_category(), "mkdtemp");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path host_candidate(const std::string& problem) {
  return candidate_dir() / "host" / ("libhost_" + problem + ".so");
}

std::filesystem::path hostile_candidate(const std::string& name) {
  return candidate_dir() / "hostile" / ("libhostile_" + name + ".so");
}

std::filesystem::path hostile_file(const std::string& file_name) {
  return candidate_dir() / "hostile" / file_name;
}

std::filesystem::path problems_dir() { return configured("KBV_TEST_PROBLEMS_DIR", KBV_TEST_PROBLEMS_DIR); }

std::vector<std::string> problem_names() {
  std::vector<std::string> names;
  for (const std::filesystem::path& folder : {problems_dir(), problems_dir() / "kernelbench"}) {
    std::error_code error;  // a missing folder lists nothing; the tests that need problems then fail on their own
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
      if (entry.is_regular_file() && entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool is_gpu_only_problem(const std::string& name) {
  for (const std::filesystem::path& folder : {problems_dir(), problems_dir() / "kernelbench"}) {
    std::ifstream file(folder / (name + ".yaml"));
    if (!file) continue;
    for (std::string line; std::getline(file, line);)
      if (line.rfind("gpu_only:", 0) == 0) return true;
    return false;
  }
  return false;
}

std::vector<std::string> host_candidate_problems() {
  std::vector<std::string> problems;
  std::stringstream list(KBV_TEST_HOST_PROBLEMS);
  for (std::string name; std::getline(list, name, ',');)
    if (!name.empty()) problems.push_back(name);
  return problems;
}

EvalRun run_kbv_eval(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
  Command command;
  command.argv = {kbv_binary().string(), "eval"};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.argv.insert(command.argv.end(), {"--json", "--key-file", test_key_file().string()});
  command.env = env;
  // The tests name every path themselves; nothing from the caller's environment steers kbv.
  for (const char* variable : {"KBV_KEY_FILE", "KBV_PROBLEMS_DIR", "KBV_WORKER"})
    if (env.count(variable) == 0) command.unset_env.push_back(variable);
  command.timeout = kKbvTimeout;
  EvalRun run;
  run.command_line = describe(command);
  run.result = run_command(command);
  try {
    run.report = nlohmann::json::parse(run.result.out);
  } catch (const nlohmann::json::exception& error) {
    run.parse_error = error.what();
  }
  return run;
}

std::string explain(const EvalRun& run) {
  std::ostringstream text;
  text << "command: " << run.command_line << "\nexit: " << run.result.exit_code << " signal: " << run.result.signal
       << (run.result.timed_out ? " (timed out)" : "") << "\nstdout: " << run.result.out;
  if (!run.parse_error.empty()) text << "\nstdout is not one JSON object: " << run.parse_error;
  const std::string& err = run.result.err;
  text << "\nstderr (tail): " << (err.size() > kStderrTail ? err.substr(err.size() - kStderrTail) : err);
  return text.str();
}

}  // namespace kbv::test
