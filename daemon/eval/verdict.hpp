// eval/verdict.hpp — the verdict taxonomy and everything one evaluation reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calibration/derived_speedups.hpp"

namespace kbv::eval {

// DESIGN.md's taxonomy, plus bad_input for a request kbv cannot evaluate at all.
enum class Verdict {
  pass,
  fail_correctness,
  crash,
  timeout,
  abi_error,
  load_error,
  resource,
  hack_suspected,
  sandbox_violation,
  bad_input,
};

std::string_view verdict_name(Verdict verdict);

// The version of EvalResult::to_json()'s layout (docs/result-schema.md says what changes it).
constexpr int kResultSchemaVersion = 2;

// Every hack_pattern a hack_suspected verdict can carry, and every flag a report can carry: the
// names kbvd's metrics label (daemon/kbvd/metrics; tests/kbvd/names_test.cpp keeps the two
// lists in step). The evaluator refuses to report a name missing here (std::logic_error).
// Flags never gate. Most ask for a person's review; bitwise_nondeterministic is informational:
// two calls on the same inputs differed in their bits but not beyond the problem's tolerance,
// which is what an atomicAdd reduction does (outputs that differ beyond it fail instead).
const std::vector<std::string>& hack_patterns();
const std::vector<std::string>& review_flags();

struct FamilyResult {
  std::string family;
  std::string family_class;         // its class (inputs/family_classes.hpp); empty for the public family
  bool hidden = false;
  bool gating = true;
  bool degenerate = false;          // a trivial output passes: reported, never gates
  std::string degenerate_reason;    // which trivial output passed
  bool baseline_passed = true;      // the fp32 baseline passed this family (problem validation)
  int trials = 0;
  int trials_by_error_scale = 0;    // trials the default rule failed and the products' error scale judged
  bool passed = true;
  double max_abs_error = 0;
  double rel_l2_error = 0;
  // The precision check's ‖out − ref_bf16‖ / ‖out − ref‖ on the first trial (verify/precision_signature.hpp):
  // < kBf16ExplainedRatio fails; negative when not checked (no product operands to round, or the family failed first).
  double bf16_distance_ratio = -1;
  std::string detail;               // first failure, in words
};

// One class of hidden families in an evaluation: the family that gated, or none (the class is
// degenerate for the problem: nothing of its kind was tested) and why its families could not.
struct ClassResult {
  std::string name;
  std::string gating_family;  // empty: degenerate
  std::string reason;         // "family: why" for each family checked that could not gate
};

struct TimingStats {
  double median_s = 0, iqr_s = 0, min_s = 0, max_s = 0;
  int samples = 0;
  nlohmann::json to_json() const;
};

struct EvalResult {
  Verdict verdict = Verdict::pass;
  std::string detail;
  std::optional<std::string> hack_pattern;
  std::optional<std::string> failed_family;
  std::vector<std::string> flags;

  // Candidate
  std::string candidate_path, candidate_sha256, candidate_name, declared_problem, candidate_device;
  uint32_t abi_version = 0;
  // What the candidate's compiler recorded about its build (eval/candidate_build.hpp): never
  // gates; null when the file was not read.
  nlohmann::json candidate_build;
  // Problem
  std::string problem, shape_set;
  int level = 0;
  double flops = 0, compulsory_bytes = 0;
  uint64_t epoch = 0;

  std::vector<FamilyResult> families;
  std::vector<ClassResult> classes;
  std::optional<TimingStats> candidate_time, baseline_fp32_time, baseline_tf32_time;
  // CUDA with the worker's trace on: the kept samples' span from the first kernel's start to
  // the last kernel's end (CUPTI), a second time independent of the worker's events.
  std::optional<TimingStats> candidate_kernel_span;
  double physical_floor_s = 0;
  // Speedups over PyTorch (eager TF32/FP32, torch.compile), derived from the interleaved
  // library speedup and the PyTorch calibration of this GPU (calibration/derived_speedups.hpp).
  calibration::DerivedSpeedups torch_baselines = calibration::DerivedSpeedups::none("the candidate was not timed");
  std::optional<nlohmann::json> memory;
  nlohmann::json environment = nlohmann::json::object();
  // Every kept timing sample, when asked for (kbv eval --samples): per-contender seconds, the SM
  // clock ratio, who went first and the family, index for index. Null otherwise.
  nlohmann::json timing_samples;
  // Per input family the timed samples came from: each contender's figures there, and the noise
  // within families (a kernel's time can depend on its inputs' values). Null until timed.
  nlohmann::json timing_by_family;
  // CUDA: where the candidate's kernel span goes, kernel by kernel (eval/kernel_breakdown.hpp).
  nlohmann::json candidate_kernels;
  nlohmann::json noise_within_families;
  // The worker's stderr and stdout (the candidate's printf debugging, kbv eval --verbose): the
  // last bytes, in the order written. The sandbox's report goes to environment.worker_sandbox.
  std::string worker_stderr_tail;
  // How the worker ended when it died or was killed: {"exit_status": N} or {"signal": N,
  // "signal_name": "SIGSEGV"}; null when it exited as asked.
  nlohmann::json worker_exit;
  double wall_seconds = 0;
  // The request itself was unusable (not a shared object, unknown problem): exit status 2.
  bool input_error = false;

  nlohmann::json to_json() const;
  // Exit status of `kbv eval`: 0 pass, 2 bad input, 1 anything else.
  int exit_code() const;
};

}  // namespace kbv::eval
