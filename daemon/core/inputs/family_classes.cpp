// inputs/family_classes.cpp — which class each hidden family belongs to (family_classes.hpp says why).
#include "inputs/family_classes.hpp"

#include <array>

namespace kbv::inputs {

namespace {
constexpr std::array<std::string_view, kFamilyClassCount> kClassNames = {"sign", "shape", "magnitude", "small", "rare", "structure"};
}  // namespace

std::optional<FamilyClass> class_of(Family family) {
  switch (family) {
    case Family::negated:
    case Family::normal:
    case Family::sparse: return FamilyClass::sign;
    case Family::shifted:
    case Family::heavy_tailed:
    case Family::scaled3:
    case Family::per_row_scale: return FamilyClass::shape;
    case Family::large:
    case Family::wide_range: return FamilyClass::magnitude;
    case Family::tiny:
    case Family::scaled001: return FamilyClass::small;
    case Family::rare_signs:
    case Family::rare_spikes: return FamilyClass::rare;
    case Family::channel_affine:
    case Family::outliers:
    case Family::trend: return FamilyClass::structure;
    case Family::uniform01:
    case Family::count: break;
  }
  return std::nullopt;
}

std::vector<Family> families_of(FamilyClass family_class) {
  std::vector<Family> members;
  for (uint32_t f = 0; f < kFamilyCount; ++f)
    if (class_of(static_cast<Family>(f)) == family_class) members.push_back(static_cast<Family>(f));
  return members;
}

std::string_view class_name(FamilyClass family_class) {
  const auto index = static_cast<uint32_t>(family_class);
  return index < kFamilyClassCount ? kClassNames[index] : "unknown";
}

std::optional<FamilyClass> class_from_name(std::string_view name) {
  for (uint32_t c = 0; c < kFamilyClassCount; ++c)
    if (kClassNames[c] == name) return static_cast<FamilyClass>(c);
  return std::nullopt;
}

}  // namespace kbv::inputs
