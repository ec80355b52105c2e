// eval/evaluation.hpp — one evaluation's state and steps, internal to kbv_eval. evaluator.cpp
// runs the sequence (worker start, setup, verdict); evaluation_calls.cpp makes one checked call
// and reads what the worker observed; evaluation_correctness.cpp checks the families;
// evaluation_timing.cpp times candidate and baselines interleaved and reports memory.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/data_plane.hpp"
#include "eval/evaluator.hpp"
#include "eval/full_check_schedule.hpp"
#include "eval/kernel_set_check.hpp"
#include "eval/phase_clock.hpp"
#include "eval/sample_checks.hpp"
#include "eval/evaluation_session.hpp"
#include "eval/started_worker.hpp"
#include "eval/timed_sample.hpp"
#include "eval/wait_correction.hpp"
#include "eval/worker_host_steps.hpp"
#include "eval/worker_process.hpp"
#include "inputs/epoch_plan.hpp"
#include "timing/stop_rule.hpp"

namespace kbv::eval::detail {

using Clock = std::chrono::steady_clock;

// "socket (41), ptrace (101)": the system calls the sandbox refused.
std::string violation_text(const std::vector<int>& numbers);

class Evaluation {
 public:
  Evaluation(const EvalOptions& options, const ProblemCatalog& catalog, const inputs::SecretKey& key, EvaluationSession& session)
      : options_(options), catalog_(catalog), key_(key), session_(session) {}

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
  // `text` with the path of kbv's private copy of the candidate replaced by the path submitted.
  std::string as_submitted(std::string text) const;
  // `limit_s`: the limit the worker did not answer within (named in a timeout's detail).
  void worker_lost(const std::string& during, bool timed_out, double limit_s);
  std::optional<nlohmann::json> await(const std::string& during, double timeout_s);
  void evaluate_candidate();
  // Starts the worker (or takes the one the session started early), copies the candidate where the
  // worker loads it, checks and hashes the copy, and loads it: the worker's ready message or its
  // load_failed, nullopt when the evaluation is decided.
  std::optional<nlohmann::json> start_and_load();
  // Nothing the candidate started can outlive its worker: it ran sandboxed, and its seccomp filter
  // refused new processes or it ran in a cgroup of its own (killed and emptied when it ends; the
  // sandbox keeps it from moving a child out).
  bool worker_leaves_nothing() const;

  // evaluation_calls.cpp
  // One checked call of the candidate on `slot`: digests around it, thread count, sandbox.
  // Returns false when the evaluation is decided (the candidate misbehaved or died).
  bool checked_call(DataPlane& plane, int slot, double* reported_s = nullptr, double* round_trip_s = nullptr, bool cold = false);
  // The evaluator's last steps on `slot` before a call's send: its outputs poisoned, then its
  // inputs' digest (returned), each in its phase. prepare_like_a_call repeats them.
  std::string poison_and_digest(DataPlane& plane, int slot);
  // What the worker's CUPTI trace saw of the call. The trace lives in the candidate's process,
  // so it can only convict, never acquit: every figure that matters is also bounded from
  // outside (timing cross-check, physical floor, recheck of outputs).
  bool check_observations(const nlohmann::json& observed);
  // The part of those checks a null call's trace is held to too: work outside the timed window
  // (before it, after it, between calls) and kernels named as kbv's own beyond the ones it
  // launched (cupti/window_escapes.hpp). False when it decided.
  bool check_escapes(const nlohmann::json& observed);
  // The hack pattern a worker clock slower than the evaluator's view points to: on CUDA with the
  // trace on and every traced kernel inside its window on the timed stream, a tampered event
  // timer (timer_tampering); with kernels seen on another stream, or no trace, work outside
  // the timed window (stream_injection); on the host, always the clock (timer_tampering).
  std::string slow_clock_pattern() const;
  // Round trip of a message the worker answers without calling the candidate; with a slot, the
  // worker first runs its whole per-call routine around nothing (a null call) on that slot.
  double ping_round_trip(std::optional<int> null_call_slot = std::nullopt, bool cold = false);
  // Null calls of the worker before the candidate is loaded, the trusted reference that bounds
  // the later null calls (which a loaded candidate can lengthen; see PreloadNullCalls). CUDA's are
  // cold, like the null calls of its timing phase.
  bool time_null_calls_before_load();
  // Host: the evaluator's side of a timed call before its send, done again before a null call on
  // `slot` (a wake-up ping, fresh inputs drawn and written, outputs poisoned, inputs hashed), so
  // the null call meets the worker in the state a timed call does. Without it the routine
  // subtracted was short of a call's by most of the exchange: on this 2-vCPU VM (2026-12-07,
  // batches of 3 honest host relus) a timed call cost the worker 77–89 µs more CPU time than a
  // null call, of which run() was 30; with it, 42. The ping alone with the poisoning and hashing
  // (no fresh inputs) closed nothing (80–89 µs): the inputs' generation and fp64 reference,
  // streamed through the caches while the worker is stopped, are what a call wakes into.
  // The inputs are never timed: the slot's next timed call draws its own. False once decided.
  bool prepare_like_a_call(DataPlane& plane, int slot, const inputs::FamilyDraw& draw, int call);
  // The keyed seed of timing call `call`'s inputs for `purpose` ("timing": the timed call's,
  // "null-call": prepare_like_a_call's), unique to this evaluation's nonce.
  uint64_t timing_seed(std::string_view purpose, int call) const;
  // Host, with the wait correction on (eval/wait_correction.hpp): the run queue waits so far of
  // the evaluating thread and of every worker thread, read outside the timed window; empty
  // otherwise. waits_since() is what an exchange added to them (none of the evaluator's when the
  // exchange's round trip ended at the answer's arrival stamp).
  struct RunDelayReading {
    std::optional<std::uint64_t> evaluator_ns;
    ProcessSchedstats worker;                    // CPU time and run_delay per worker thread
    std::optional<std::uint64_t> worker_cpu_ns;  // the worker's CPU time, all its threads' (ended ones too)
  };
  RunDelayReading read_run_delays(bool own_first = false) const;
  std::optional<ExchangeWaits> waits_since(const RunDelayReading& before, std::optional<std::uint64_t> evaluator_sent_ns,
                                           bool ended_at_arrival) const;

  // evaluation_correctness.cpp
  // Leaves in plan.families the families it checked, in result_.families' order.
  void validate_and_check(DataPlane& plane, inputs::EpochPlan& plan);
  // The problem's own validation of `draw` on slot 0's current inputs (prepared from `seed`), or
  // the session's record of it.
  FamilyValidation validate_family(DataPlane& plane, const inputs::FamilyDraw& draw, uint64_t seed, bool* prepared);

  // evaluation_timing.cpp
  // Warm-up, then samples until the stop criterion is finished (timing::StopRule's evaluator
  // presets); each sample checked (sample_checks.hpp); then summarize_timing.
  // A clock disagreement (sample_checks.hpp, ClockAgreement) on the host is measured again, up to
  // three times, before it is a verdict: time_contenders_once again, whose figures alone are
  // judged and reported.
  void time_contenders(DataPlane& plane, const inputs::EpochPlan& plan);
  void time_contenders_once(DataPlane& plane, const inputs::EpochPlan& plan);
  // One sample: fresh inputs of `draw` in a rotating slot, the baselines and the candidate in a
  // keyed order, a null call every few calls, the SM clock, the recheck of the timed output.
  // Empty when the evaluation was decided during the call.
  std::optional<TimedSample> take_timed_sample(DataPlane& plane, const inputs::FamilyDraw& draw, int call, TimingSeries& series);
  // The kept samples' figures into the result, after the worker's clock is checked against the
  // evaluator's.
  void summarize_timing(DataPlane& plane, const TimingSeries& series, const timing::StopRule& rule, size_t warmup_calls);
  void fail_timing(const SampleFailure& failure);
  // The full correctness check of a timed call's outputs (full_check_schedule.hpp): the fp64
  // reference at the problem's tolerance and the precision check. False when it decided.
  bool full_check(DataPlane& plane, int slot, int call);
  // The candidate's device memory next to the TF32 baseline's: from the worker's CUPTI trace
  // when it ran (per-call peaks), else from the evaluator's own view (memory held between calls).
  void report_memory(const DataPlane& plane);
  // evaluation_baselines.cpp: speedups over PyTorch from the interleaved library timing and the
  // PyTorch calibration of this GPU (calibration/derived_speedups.hpp); reasons where none fits.
  void derive_torch_baselines(const ResolvedProblem& problem);
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
  EvaluationSession& session_;
  EvalResult result_;
  bool decided_ = false;
  std::unique_ptr<StartedWorker> started_;  // the folders outlive the worker (declared first)
  std::unique_ptr<WorkerProcess> worker_;
  int baseline_threads_ = -1;
  int threads_before_load_ = -1;  // the worker's, just before it was sent the candidate
  PreloadNullCalls preload_null_calls_;  // null calls timed before the candidate was loaded (CUDA: also the clock agreement's routine)
  std::string candidate_copy_;    // the copy the worker loads (StartedWorker::place_candidate)
  double device_used_at_start_ = -1;
  double device_held_by_candidate_ = 0;
  std::optional<double> last_kernel_span_s_;  // the last traced call: first kernel start to last kernel end
  std::vector<TracedKernel> last_kernels_;      // the last traced call's kernels in start order (diagnostic)
  double peak_candidate_bytes_ = 0;
  // Device memory the candidate holds between calls by the trace's count: what loading it
  // (create()) kept, plus every traced call's net allocations. A call's peak counts on top.
  double held_candidate_bytes_ = 0;
  double peak_pool_bytes_ = 0;      // the largest stream-ordered pool its allocations came from
  bool traced_off_stream_ = false;  // a traced call ran kernels on a stream other than the timed one
  bool traced_calls_ = false;       // at least one call's CUPTI trace reached the evaluator
  std::string call_cuda_error_;     // the worker's CUDA observation of the current call
  std::string worker_error_;        // a worker_error message's text: kbv's own code failed there
  std::string worker_candidate_error_;  // …and the candidate's last set_error text then
  nlohmann::json worker_sandbox_;   // the worker's sandbox report (ready message)
  KernelSetCheck kernel_sets_;  // phase detection over the traced calls' kernel names
  WorkerHostSteps worker_steps_;  // the worker's host time per step of its calls (diagnostic)
  std::optional<FullCheckSchedule> full_checks_;  // the timed calls given the full correctness check
  std::string timing_nonce_;  // this evaluation's own: keys the timed calls' inputs and full checks
  // The last measurement's clock disagreement (summarize_timing): time_contenders measures again
  // or decides.
  std::optional<SampleFailure> clock_disagreement_;
  int call_id_ = 0;
  int validations_reused_ = 0;  // families whose problem validation the session already had
  // Host: whether the trusted time takes run queue waits out (the kernel has schedstat), and the
  // waits of the last call or ping (empty when not measured).
  bool wait_correction_ = false;
  std::optional<ExchangeWaits> last_waits_;
  PhaseClock phases_;
  std::string phase_ = "setup";  // prefix of the per-call phases: correctness or timing
  std::string family_;           // the input family of the call being made
};

}  // namespace kbv::eval::detail
