// bench/calibrate/torch_entry.hpp — what kbv-calibrate --torch sends PyTorch's side about a problem,
// and the calibration entry it makes of the two sides' figures (calibration/torch_calibration.hpp).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "calibration/torch_calibration.hpp"
#include "spec/problem.hpp"

namespace kbv::calibrate {

// A library baseline's medians before and after PyTorch's measurement, and what ran.
struct LibraryMeasurement {
  double before_s = 0, after_s = 0;
  std::string describe;                  // CudaBaseline::describe()
  nlohmann::json before, after;          // the cold timer's figures (evidence)
};

// Library medians that moved more than this between before and after make the entry's ratios
// suspect: the run says so (warnings), and the entry records the drift. The cold timer's medians
// repeat within ~1 % on the H200 (docs/results/timing.md), so 3 % is a change of state.
constexpr double kLibraryDriftWarning = 0.03;

// The problem as kbv_torch/forward.py reads it: name, source and kernelbench (read from the YAML
// file, so fields this kbv does not model still reach PyTorch's side), every input's concrete
// shape and scale, every output's shape, the graph with complete attributes.
nlohmann::json problem_description(const ResolvedProblem& problem);

// The entry for one problem and shape set: ratios = each PyTorch median / the mean of the
// library's medians before and after, in the baseline's math mode; PyTorch's errors, or the
// reason it had no forward (a "skipped" reply: forward "none"), in `errors`. `max_duty`: the duty
// both timers were paced to (the stop rule's; recorded only when below 1).
calibration::CalibrationEntry make_entry(const ResolvedProblem& problem, const std::map<std::string, LibraryMeasurement>& library,
                                         const nlohmann::json& reply, const std::string& measured_at, double max_duty = 1.0);

// Why PyTorch's side cannot time this problem here, decided before any device time is spent on
// it: an imported problem's forward is KernelBench's Model file, which needs a checkout
// (--kernelbench). nullopt: calibrate it.
std::optional<std::string> reason_not_to_calibrate(const Problem& problem, const std::optional<std::filesystem::path>& kernelbench_dir);

// |after - before| / mean, the library's drift across PyTorch's measurement.
double library_drift(const LibraryMeasurement& library);

}  // namespace kbv::calibrate
