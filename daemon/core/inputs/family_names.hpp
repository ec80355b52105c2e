// inputs/family_names.hpp — the names families have in specs, configs, JSON and reports.
#pragma once

#include <optional>
#include <string_view>

#include "inputs/families.hpp"

namespace kbv::inputs {

std::string_view family_name(Family family);
std::optional<Family> family_from_name(std::string_view name);
// The public family is the one every KernelBench input is drawn from; all others are hidden.
inline bool is_hidden(Family family) { return family != Family::uniform01; }

}  // namespace kbv::inputs
