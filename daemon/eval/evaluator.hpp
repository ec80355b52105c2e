// eval/evaluator.hpp — one evaluation of one candidate: the trusted side of the boundary.
//
// Order of work: look at the file (ELF), start the worker, learn what it declares, resolve
// the problem, validate the problem on this epoch's families (fp32 baseline must pass;
// families where a trivial output passes are degenerate and do not gate), check the
// candidate on every family and trial (poisoned outputs, input digests around each call,
// thread count, sandbox reports, determinism), then time candidate and baseline interleaved
// on fresh inputs of every family, rechecking each timed output.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eval/verdict.hpp"
#include "inputs/secret_key.hpp"
#include "spec/catalog.hpp"

namespace kbv::eval {

// Correctness trials per family: enough to catch pointer caching and phase tricks with
// fresh contents, few enough for a 2-second host evaluation (issue #2's target).
constexpr int kTrialsPerFamily = 3;
// Distinct buffer sets the timed samples rotate through (caching by pointer cannot hit).
constexpr int kTimingSlots = 4;
// The buffer sets this process's evaluations rotate through: kTimingSlots, or fewer where the
// operator's KBV_TIMING_SLOTS (1 to kTimingSlots) says so, a diagnostic switch to tell the
// rotation's cost from the rest of a timing (bench/torch_parity/kernel_timeline.py). Fewer sets
// leave caching by pointer to the timed outputs' recheck alone; the report says how many were
// used (environment.timing_slots). Throws std::runtime_error naming the variable and the fix
// for any other value.
int timing_slots();

struct EvalOptions {
  std::filesystem::path candidate;
  std::optional<std::string> problem;     // default: what the candidate declares
  std::string device = "host";            // host or cuda
  int gpu = 0;
  std::optional<std::string> shape_set;   // default: small on host, default on cuda
  uint64_t epoch = 0;
  std::filesystem::path key_file;
  std::vector<std::filesystem::path> forbidden;  // more paths the worker must not read (kbvd: its store, watch folder)
  std::filesystem::path worker_binary;
  double call_timeout_s = 10.0;           // one call of the candidate
  double load_timeout_s = 60.0;           // worker start, sandbox, dlopen, CUDA context
  double timing_budget_s = 0.5;           // host: wall-clock cap on the timing phase
  bool sandbox = true;
  bool skip_timing = false;
  bool keep_samples = false;              // every kept timing sample in the report (timing.samples)
};

class EvaluationSession;

// Never throws for anything the candidate does; throws SpecError / std::runtime_error only
// for a request that is wrong before any candidate runs (the caller maps those to exit 2).
EvalResult evaluate(const EvalOptions& options, const ProblemCatalog& catalog, const inputs::SecretKey& key);
// The same as one of consecutive evaluations that share what does not depend on the candidate
// (eval/evaluation_session.hpp: the data plane, family validations, the next worker started early).
EvalResult evaluate(const EvalOptions& options, const ProblemCatalog& catalog, const inputs::SecretKey& key, EvaluationSession& session);

}  // namespace kbv::eval
