// inputs/family_names.cpp — family names, in enum order.
#include "inputs/family_names.hpp"

#include <array>

namespace kbv::inputs {
namespace {
constexpr std::array<std::string_view, kFamilyCount> kNames = {
    "uniform01",      "negated",  "scaled3", "scaled001",  "normal",     "shifted",
    "large",          "heavy_tailed", "sparse", "tiny", "per_row_scale", "channel_affine",
    "outliers",       "trend",    "wide_range", "rare_signs", "rare_spikes"};
}

std::string_view family_name(Family family) {
  const auto index = static_cast<uint32_t>(family);
  return index < kFamilyCount ? kNames[index] : "unknown";
}

std::optional<Family> family_from_name(std::string_view name) {
  for (uint32_t i = 0; i < kFamilyCount; ++i)
    if (kNames[i] == name) return static_cast<Family>(i);
  return std::nullopt;
}

}  // namespace kbv::inputs
