// calibration/recalibration.hpp — whether a problem's PyTorch calibration needs measuring again:
// what `kbv calibrate --torch --stale` asks before it times a problem, so that a round after a
// library change spends device time only on the entries an evaluation could not use as they are.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "calibration/derived_speedups.hpp"

namespace kbv::calibration {

// Why the calibration in `file` does not give `in` (the problem, shape set, GPU, driver, CUDA
// libraries, torch version, spec, library sources and descriptions as they are now; timings are
// not read) a ratio for every baseline in `baselines` (torch_baselines() names) from a paced run;
// nullopt when it does and nothing needs measuring. The reasons are derive_speedups()'s (no file,
// no entry, spec, sources or description changed, a baseline that failed) and "calibrated
// unpaced", since an unpaced ratio may compare two SM clocks (docs/torch-calibration.md).
std::optional<std::string> recalibration_reason(DerivationInputs in, const std::filesystem::path& file, const std::vector<std::string>& baselines);

}  // namespace kbv::calibration
