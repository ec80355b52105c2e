// calibration/derived_speedups.hpp — speedups over PyTorch without PyTorch in the evaluator:
//   speedup.vs_<baseline> = (library median / candidate median, timed interleaved in this
//                            evaluation) × (baseline median / library median, from the
//                            calibration of this GPU, driver and torch version)
// Every way the calibration can be missing or stale (no file, another GPU, another driver,
// another torch version than asked for, no entry for the problem, a problem whose graph or
// shapes changed, a library baseline whose description or sources changed) leaves the speedup
// null with the reason; nothing stale is ever used.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "calibration/clock_agreement.hpp"
#include "spec/problem.hpp"

namespace kbv::calibration {

// What the evaluation knows when it derives.
struct DerivationInputs {
  std::string device;  // "cuda" or "host"
  std::string device_name, driver;
  std::string library_versions;  // the evaluation's CUDA libraries (measure/support/library_versions.hpp); empty: not known
  std::string problem, shape_set, spec_sha256;
  std::string library_sources_sha256;  // library_sources_sha256() of the problem in this build
  std::map<std::string, std::string> library_describe;  // math mode -> CudaBaseline::describe() now
  std::map<std::string, double> library_median_s;       // math mode -> interleaved median; absent when not timed
  std::optional<double> candidate_median_s;             // absent when not timed
  std::optional<std::string> torch_version;             // a wanted version ($KBV_TORCH_VERSION); none: the newest
};

struct DerivedBaseline {
  std::optional<double> speedup;              // library speedup × ratio
  std::optional<double> ratio;                // the calibration's baseline / library
  std::optional<double> estimated_median_s;   // library median × ratio: the baseline's time here
  std::string reason;                         // why speedup is null; empty when it is not
  std::string measured_at;                    // when the ratio was measured (an earlier run's, where a rerun kept it)
  bool kept_from_earlier_run = false;         // the ratio is an earlier run's, kept by a rerun that did not measure it
  // The SM clocks the ratio's two sides were timed at (clock_agreement.hpp); nullopt when the
  // calibration recorded no clock for one of them.
  std::optional<ClockComparison> clocks;
};

struct DerivedSpeedups {
  // The calibration used (file, GPU, driver, torch version, when): null when none was.
  nlohmann::json calibration;
  std::map<std::string, DerivedBaseline> baselines;  // by name: eager_tf32, eager_fp32, compiled_tf32

  // Every baseline null with the same reason, no calibration used.
  static DerivedSpeedups none(const std::string& reason);

  // The result's `baselines` object (docs/result-schema.md).
  nlohmann::json to_json() const;
  // speedup.vs_<name> of each baseline (null where not derived).
  void add_speedups(nlohmann::json& speedup) const;
};

// `in`'s problem part as this build has it: the problem's name, shape set, spec fingerprint
// (problem_fingerprint.hpp) and library sources digest (library_sources.hpp; left empty for a
// problem with an op this build has no digest for, which no recorded digest then matches).
void identify_problem(DerivationInputs& in, const ResolvedProblem& problem);

// What a library baseline runs, from its CudaBaseline::describe() text, without how each choice
// was arrived at: a conv step's " chosen by <source>" (cudnnFind, or the algorithm cache and its
// path) differs between runs that run the same algorithm. Two baselines with the same identity
// run the same calls and kernels.
std::string library_identity(const std::string& describe);

// Never throws: a calibration that cannot be used is a reason, and the library baseline stands.
DerivedSpeedups derive_speedups(const DerivationInputs& inputs, const std::filesystem::path& calibration_file);

}  // namespace kbv::calibration
