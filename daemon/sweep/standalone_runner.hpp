// sweep/standalone_runner.hpp — evaluate without kbvd (`kbv sweep --standalone`): `kbv eval --json`
// children, one at a time per GPU (or `jobs` at a time on the host device), each evaluating up to
// `batch` consecutive candidates of one problem, every verdict recorded as its line appears.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sweep/run_context.hpp"
#include "sweep/sweep_config.hpp"

namespace kbv::sweep {

struct StandaloneSettings {
  std::filesystem::path evaluator;  // the kbv binary
  StandaloneOptions options;
  std::filesystem::path key_file;      // passed to every child
  std::filesystem::path problems_dir;  // empty: the child's default
  std::filesystem::path scratch;       // the children's stdout and stderr while they run
};

// The evaluation slots: one per GPU for cuda (all visible ones when none are named), `jobs` for
// the host. Throws std::runtime_error (with the fix) when cuda has no GPU to use.
std::vector<std::string> standalone_slots(const StandaloneOptions& options);

// The command line of one child: the candidates of one batch (one problem), in order.
std::vector<std::string> evaluator_command(const StandaloneSettings& settings, const std::vector<const PlannedEvaluation*>& items,
                                           std::uint64_t epoch, const std::string& slot);

RunResult run_standalone(const RunContext& context, const StandaloneSettings& settings);

}  // namespace kbv::sweep
