// calibration/recalibration.cpp — whether an entry needs measuring again (recalibration.hpp).
#include "calibration/recalibration.hpp"

namespace kbv::calibration {

std::optional<std::string> recalibration_reason(DerivationInputs in, const std::filesystem::path& file, const std::vector<std::string>& baselines) {
  // Unit timings: only whether each ratio would be used is asked, not a speedup.
  for (const auto& [mode, describe] : in.library_describe) in.library_median_s[mode] = 1.0;
  in.candidate_median_s = 1.0;
  const DerivedSpeedups derived = derive_speedups(in, file);
  for (const std::string& name : baselines) {
    const auto found = derived.baselines.find(name);
    if (found == derived.baselines.end()) return "no baseline called " + name;
    if (!found->second.speedup) return name + ": " + found->second.reason;
  }
  if (!derived.calibration.is_object() || !derived.calibration.contains("max_duty") || derived.calibration["max_duty"].is_null())
    return "calibrated unpaced, before kbv paced both timers to one GPU duty";
  return std::nullopt;
}

}  // namespace kbv::calibration
