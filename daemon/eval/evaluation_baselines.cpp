// daemon/eval/evaluation_baselines.cpp — the speedups over PyTorch an evaluation reports: the
// interleaved library timing scaled by the PyTorch calibration of this GPU, driver and torch
// version (calibration/derived_speedups.hpp). The evaluator never runs PyTorch.
#include <cstdlib>

#include "calibration/derived_speedups.hpp"
#include "calibration/torch_calibration.hpp"
#include "eval/evaluation.hpp"

namespace kbv::eval::detail {

void Evaluation::derive_torch_baselines(const ResolvedProblem& problem) {
  if (!result_.candidate_time) {
    result_.torch_baselines = calibration::DerivedSpeedups::none(options_.skip_timing ? "not timed (--no-timing)" : "the candidate was not timed");
    return;
  }
  calibration::DerivationInputs in;
  in.device = options_.device;
  in.device_name = result_.environment.value("device_name", "");
  in.driver = result_.environment.value("driver", "");
  in.library_versions = result_.environment.value("library_versions", "");
  calibration::identify_problem(in, problem);
  for (const char* mode : {"tf32", "fp32"}) {
    const std::string key = std::string("baseline_") + mode;
    if (result_.environment.contains(key) && result_.environment[key].is_string()) in.library_describe[mode] = result_.environment[key].get<std::string>();
  }
  if (result_.baseline_tf32_time) in.library_median_s["tf32"] = result_.baseline_tf32_time->median_s;
  if (result_.baseline_fp32_time) in.library_median_s["fp32"] = result_.baseline_fp32_time->median_s;
  in.candidate_median_s = result_.candidate_time->median_s;
  if (const char* wanted = std::getenv("KBV_TORCH_VERSION"); wanted != nullptr && *wanted != '\0') in.torch_version = wanted;
  result_.torch_baselines = calibration::derive_speedups(in, calibration::default_torch_calibration_path());
}

}  // namespace kbv::eval::detail
