// sweep/sweep_config.hpp — a sweep's YAML configuration (docs/sweeps.md, configs/sweep.yaml).
//
// Errors that leave nothing to run (syntax, an unknown or mistyped top-level field) throw
// ConfigError naming file, line, field and fix. Errors in one candidate source (a missing folder,
// a mistyped entry) become Issues in `issues`: that source is left out and the sweep runs on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sweep/issue.hpp"

namespace kbv::sweep {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One entry of `candidates:`: a folder (every *.so in it) or a glob, with the defaults its
// candidates take where their sidecar manifest says nothing.
struct CandidateSource {
  enum class Kind { folder, glob };
  Kind kind = Kind::folder;
  std::filesystem::path pattern;  // folder path or glob pattern, absolute
  bool recursive = false;         // folders only: descend into subfolders
  std::string model, problem;
  std::vector<std::string> tags;
  std::string field;  // "candidates[N]", for issues
};

// Which candidates a sweep evaluates: every non-empty list must admit the candidate (any of its
// values matches); empty lists admit everything.
struct Filters {
  std::vector<std::string> problems, models, tags;
  std::vector<int> levels;
  bool empty() const { return problems.empty() && models.empty() && tags.empty() && levels.empty(); }
};

enum class Mode { kbvd, standalone };

struct KbvdOptions {
  std::filesystem::path socket;  // default: $KBV_SOCKET, else /run/kbvd/control.sock
  double poll_interval_s = 1.0;
};

struct StandaloneOptions {
  std::string device = "host";  // host or cuda
  std::vector<int> gpus;        // cuda: the ordinals used, one evaluation at a time on each; empty = all visible
  int jobs = 1;                 // host: evaluations at once
  double timeout_s = 1800;      // one evaluation's wall-clock limit (then: verdict timeout)
  // Consecutive candidates of one problem evaluated by one `kbv eval` (they share its data plane,
  // family validations and an early-started worker: eval/evaluation_session.hpp); 1: one each.
  int batch = 8;
  std::string shapes;           // empty: the evaluator's choice (small on host, default on cuda)
  std::filesystem::path key_file;  // empty: kbv's default key
  std::vector<std::string> extra_args;  // appended to every `kbv eval`
};

struct Budget {
  double wall_s = 0;            // 0: no limit; else no evaluation starts after this, running ones stop
  std::int64_t evaluations = 0; // 0: no limit; else at most this many evaluations are started
};

// Most epochs a sweep looks back for re-verification (kbv report --window too): far past any
// rotation schedule, and inside an int.
constexpr int kMaxReverifyEpochs = 10000;
// Bounds on a sweep's counts and durations, for the file and the command line alike: each value
// inside the int (or the duration arithmetic) it ends up in.
constexpr int kMaxJobs = 4096;
constexpr double kMaxWallSeconds = 366 * 24 * 3600.0;  // a year for a sweep

struct SweepConfig {
  std::filesystem::path file;         // the YAML file (errors name it)
  std::string name = "sweep";         // names the sweep in reports and metrics
  std::filesystem::path output_dir;   // results and reports
  std::filesystem::path problems_dir; // empty: kbv's default problems
  Mode mode = Mode::kbvd;
  std::optional<std::uint64_t> epoch; // empty: the current epoch (kbvd's, or the calendar's)
  std::vector<CandidateSource> sources;
  Filters filters;
  int reverify_epochs = 4;  // passes of the last N epochs are evaluated again; 0: none (at most kMaxReverifyEpochs)
  Budget budget;
  KbvdOptions kbvd;
  StandaloneOptions standalone;
  Issues issues;  // sources left out, and why
};

// Reads and validates `file`; relative paths are relative to its folder.
SweepConfig load_sweep_config(const std::filesystem::path& file);

// The same from text (tests); `file` names it in errors and anchors relative paths.
SweepConfig parse_sweep_config(const std::string& text, const std::filesystem::path& file);

std::string_view mode_name(Mode mode);

}  // namespace kbv::sweep
