// sched/evaluator_problems.hpp — asks the evaluator which problems it knows (`COMMAND problems
// --json`): proof that the evaluator runs (kbvd --check-config, start-up), and the names a
// manifest's `problem:` may take.
#pragma once

#include <chrono>
#include <optional>
#include <set>
#include <string>

#include "config/config.hpp"

namespace kbv::kbvd {

// `kbv problems` reads a few dozen YAML files in well under a second; this covers a cold disk
// and a loaded machine.
inline constexpr std::chrono::seconds kProblemsTimeout{30};

struct EvaluatorProblems {
  std::optional<std::set<std::string>> names;  // nothing: the evaluator did not answer usefully
  std::string error;                           // why not, naming the command and the fix
};

// Runs the evaluator (with --problems-dir when evaluator.extra_args has one).
EvaluatorProblems list_evaluator_problems(const EvaluatorConfig& config,
                                          std::chrono::milliseconds timeout = kProblemsTimeout);

}  // namespace kbv::kbvd
