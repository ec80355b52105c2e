// bench/calibrate/torch_run.hpp — kbv-calibrate --torch: for every problem and shape set, kbv's
// library baselines (TF32 and FP32) timed with the cold timer, then PyTorch's forward timed by a
// Python process with kbv's protocol (eager TF32, eager FP32, torch.compile), then the library
// again, both timers paced to one GPU duty; the ratios go into the calibration file, saved after
// every problem.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "timing/stop_rule.hpp"

namespace kbv::calibrate {

struct TorchRunOptions {
  std::filesystem::path problems_dir;
  std::filesystem::path out;            // the calibration file (merged into when it exists)
  std::filesystem::path package_dir;    // holds kbv_torch/
  std::string python = "python3";
  std::vector<std::string> problems;    // empty: every problem of the catalog
  std::vector<std::string> shape_sets;  // empty: every shape set of each problem
  std::optional<std::filesystem::path> kernelbench_dir;
  std::vector<std::string> baselines;   // PyTorch baselines to measure (default: all three)
  double max_duty = timing::kCalibrationMaxDuty;  // both timers' pace (stop_rule.hpp); 1: unpaced
  // Measure only the problems whose entry in `out` an evaluation could not use as it is
  // (calibration/recalibration.hpp); the others are listed as current and left alone.
  bool stale_only = false;
  int device = 0;
};

// Exit status: 0 when the run went through (problems PyTorch could not run are listed with the
// reason and recorded as such), 1 when PyTorch is unavailable or the run broke off, 2 on a
// request that names unknown problems or shape sets.
int run_torch_calibration(const TorchRunOptions& options);

}  // namespace kbv::calibrate
