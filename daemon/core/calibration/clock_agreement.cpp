// calibration/clock_agreement.cpp — the library's and PyTorch's clocks from an entry's evidence.
#include "calibration/clock_agreement.hpp"

#include <cmath>
#include <string>

namespace kbv::calibration {
namespace {

// A positive clock reading at evidence[path...], or 0.
double clock_at(const nlohmann::json& figures) {
  if (!figures.is_object()) return 0;
  const auto found = figures.find("sm_clock_mhz_median");
  return found != figures.end() && found->is_number() && found->get<double>() > 0 ? found->get<double>() : 0;
}

const nlohmann::json& member_or_null(const nlohmann::json& object, const std::string& key) {
  static const nlohmann::json null_value;
  if (!object.is_object()) return null_value;
  const auto found = object.find(key);
  return found != object.end() ? *found : null_value;
}

}  // namespace

std::optional<ClockComparison> compare_clocks(const CalibrationEntry& entry, const TorchBaseline& baseline) {
  const nlohmann::json& library = member_or_null(member_or_null(entry.evidence, "library"), std::string(baseline.library_mode));
  double sum = 0;
  int readings = 0;
  for (const char* when : {"before", "after"})
    if (const double mhz = clock_at(member_or_null(library, when)); mhz > 0) {
      sum += mhz;
      ++readings;
    }
  const double torch_mhz = clock_at(member_or_null(member_or_null(entry.evidence, "torch"), std::string(baseline.name)));
  if (readings == 0 || torch_mhz <= 0) return std::nullopt;
  ClockComparison out{.library_mhz = sum / readings, .torch_mhz = torch_mhz};
  out.agree = std::abs(out.library_mhz - torch_mhz) <= kClockAgreement * torch_mhz;
  return out;
}

}  // namespace kbv::calibration
