// eval/evaluation.hpp — one evaluation's state and steps, internal to kbv_eval. evaluator.cpp
// runs the sequence (worker start, setup, verdict); evaluation_calls.cpp makes one checked call
// and reads what the worker observed; evaluation_correctness.cpp checks the families;
// evaluation_timing.cpp times candidate and baselines interleaved and reports memory.
#pragma once

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/data_plane.hpp"
#include "eval/evaluator.hpp"
#include "eval/kernel_set_check.hpp"
#include "eval/phase_clock.hpp"
#include "eval/worker_process.hpp"
#include "inputs/epoch_plan.hpp"

namespace kbv::eval::detail {

using Clock = std::chrono::steady_clock;

// "socket (41), ptrace (101)": the system calls the sandbox refused.
std::string violation_text(const std::vector<int>& numbers);

class Evaluation {
 public:
  Evaluation(const EvalOptions& options, const ProblemCatalog& catalog, const inputs::SecretKey& key)
      : options_(options), catalog_(catalog), key_(key) {}

  EvalResult run();

 private:
  // Ends the evaluation with `verdict` unless one was already decided (first cause wins).
  bool decide(Verdict verdict, std::string detail, std::optional<std::string> pattern = std::nullopt) {
    if (pattern) require_known(hack_patterns(), *pattern, "hack pattern");
    if (decided_) return false;
    decided_ = true;
    result_.verdict = verdict;
    result_.detail = std::move(detail);
    result_.hack_pattern = std::move(pattern);
    return true;
  }

  // The worker stopped answering: classify why, in the taxonomy's words.
  void worker_lost(const std::string& during, bool timed_out);
  std::optional<nlohmann::json> await(const std::string& during, double timeout_s);
  void evaluate_candidate();

  // evaluation_calls.cpp
  // One checked call of the candidate on `slot`: digests around it, thread count, sandbox.
  // Returns false when the evaluation is decided (the candidate misbehaved or died).
  bool checked_call(DataPlane& plane, int slot, double* reported_s = nullptr, double* round_trip_s = nullptr, bool cold = false);
  // What the worker's CUPTI trace saw of the call. The trace lives in the candidate's process,
  // so it can only convict, never acquit: every figure that matters is also bounded from
  // outside (timing cross-check, physical floor, recheck of outputs).
  bool check_observations(const nlohmann::json& observed);
  // Round trip of a message the worker answers without calling the candidate; with a slot, the
  // worker first runs its whole per-call routine around nothing (a null call) on that slot.
  double ping_round_trip(std::optional<int> null_call_slot = std::nullopt, bool cold = false);

  // evaluation_correctness.cpp
  // Leaves in plan.families the families it checked, in result_.families' order.
  void validate_and_check(DataPlane& plane, inputs::EpochPlan& plan);

  // evaluation_timing.cpp
  void time_contenders(DataPlane& plane, const inputs::EpochPlan& plan);
  // The candidate's device memory next to the TF32 baseline's: from the worker's CUPTI trace
  // when it ran (per-call peaks), else from the evaluator's own view (memory held between calls).
  void report_memory(const DataPlane& plane);
  // timing.by_family and timing.noise_within_families from the kept samples.
  void report_by_family(const std::vector<double>& candidate, const std::map<std::string, std::vector<double>>& baselines,
                        const std::vector<std::string>& families);

  // A name the report may carry only if kbvd can label it (verdict.hpp).
  static void require_known(const std::vector<std::string>& names, const std::string& name, const char* what) {
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw std::logic_error(std::string(what) + " '" + name + "' is not in eval/verdict.cpp's list (fix: add it there and to kbvd's metrics)");
  }

  void add_flag(const std::string& flag) {
    require_known(review_flags(), flag, "flag");
    if (std::find(result_.flags.begin(), result_.flags.end(), flag) == result_.flags.end()) result_.flags.push_back(flag);
  }

  void finish_worker();

  const EvalOptions& options_;
  const ProblemCatalog& catalog_;
  const inputs::SecretKey& key_;
  EvalResult result_;
  bool decided_ = false;
  std::unique_ptr<WorkerProcess> worker_;
  int baseline_threads_ = -1;
  double device_used_at_start_ = -1;
  double device_held_by_candidate_ = 0;
  std::optional<double> last_kernel_span_s_;  // the last traced call: first kernel start to last kernel end
  double peak_candidate_bytes_ = 0;
  KernelSetCheck kernel_sets_;  // phase detection over the traced calls' kernel names
  int call_id_ = 0;
  PhaseClock phases_;
  std::string phase_ = "setup";  // prefix of the per-call phases: correctness or timing
  std::string family_;           // the input family of the call being made
};

}  // namespace kbv::eval::detail
